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
