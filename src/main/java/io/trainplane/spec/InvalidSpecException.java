package io.trainplane.spec;

import java.util.List;

/**
 * The run spec cannot be run; carries every problem found, not only the first. Terminal: running
 * the same spec again gives the same problems.
 */
public class InvalidSpecException extends RuntimeException {
    private final transient List<SpecProblem> problems;

    public InvalidSpecException(List<SpecProblem> problems) {
        super(describe(problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an invalid spec has at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public InvalidSpecException(SpecProblem problem) {
        this(List.of(problem));
    }

    public List<SpecProblem> problems() {
        return problems;
    }

    /**
     * The problems of an InvalidSpecException from its message (as Lambda reports it in a Task's
     * error, {@code errorMessage}); empty when {@code message} is not one.
     */
    public static java.util.Optional<InvalidSpecException> fromMessage(String message) {
        if (message == null || !message.startsWith("invalid run spec (")) {
            return java.util.Optional.empty();
        }
        List<SpecProblem> problems = new java.util.ArrayList<>();
        message.lines().skip(1).filter(l -> l.startsWith("  ")).forEach(line -> {
            String text = line.substring(2);
            int colon = text.indexOf(": ");
            int hint = text.lastIndexOf(HINT);
            String pointer = colon < 0 ? "" : text.substring(0, colon);
            String what = text.substring(colon < 0 ? 0 : colon + 2, hint > colon ? hint : text.length());
            problems.add(new SpecProblem(
                    "(spec)".equals(pointer) ? "" : pointer,
                    what,
                    hint > colon ? text.substring(hint + HINT.length()) : ""));
        });
        return problems.isEmpty()
                ? java.util.Optional.empty()
                : java.util.Optional.of(new InvalidSpecException(problems));
    }

    /** What SpecProblem's toString puts between the message and the hint. */
    private static final String HINT = " — hint: ";

    private static String describe(List<SpecProblem> problems) {
        StringBuilder text = new StringBuilder("invalid run spec (")
                .append(problems.size())
                .append(problems.size() == 1 ? " problem)" : " problems)");
        for (SpecProblem problem : problems) {
            text.append("\n  ").append(problem);
        }
        return text.toString();
    }
}
