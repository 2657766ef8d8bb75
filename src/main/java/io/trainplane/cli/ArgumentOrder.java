package io.trainplane.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What a mistaken command line meant, said as a command that works when pasted: a spec given
 * before the command ({@code trainplane SPEC run}), a command misspelt ({@code trainplane rnu}).
 */
final class ArgumentOrder {
    private ArgumentOrder() {}

    /** {@code trainplane SPEC run ...}: the same words with the command first. */
    static Optional<String> specBeforeCommand(CommandLine failed, String[] args) {
        CommandLine root = failed;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Set<String> commands = root.getSubcommands().keySet();
        for (int i = 1; i < args.length; i++) {
            if (!commands.contains(args[i])) {
                continue;
            }
            List<String> before = List.of(args).subList(0, i);
            if (before.stream().noneMatch(ArgumentOrder::looksLikeASpec)) {
                return Optional.empty();
            }
            List<String> words = new ArrayList<>();
            words.add(root.getCommandName());
            words.add(args[i]);
            words.addAll(before);
            words.addAll(List.of(args).subList(i + 1, args.length));
            return Optional.of("the command comes first, then the spec: " + String.join(" ", words));
        }
        return Optional.empty();
    }

    private static boolean looksLikeASpec(String arg) {
        if (arg.startsWith("-")) {
            return "-".equals(arg);
        }
        String name = arg.toLowerCase(java.util.Locale.ROOT);
        if (name.endsWith(".json") || name.endsWith(".yaml") || name.endsWith(".yml")) {
            return true;
        }
        try {
            return Files.isRegularFile(Path.of(arg));
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /** {@code trainplane rnu}: the command closest to the word given. */
    static Optional<String> commandMeant(ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException unmatched)
                || unmatched.getCommandLine().getParent() != null
                || unmatched.getUnmatched().isEmpty()) {
            return Optional.empty();
        }
        String word = unmatched.getUnmatched().get(0);
        if (word.startsWith("-")) {
            return Optional.empty();
        }
        Set<String> commands = unmatched.getCommandLine().getSubcommands().keySet();
        Optional<String> close = closest(word, commands);
        return Optional.of("no command '" + word + "'"
                + close.map(c -> ": did you mean '" + unmatched.getCommandLine().getCommandName() + " " + c + "'?")
                        .orElse("; the commands are " + String.join(", ", commands)));
    }

    /** The name nearest {@code word} (edits, a swap of two letters counting as one), when near enough to be meant. */
    static Optional<String> closest(String word, java.util.Collection<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : names) {
            int d = distance(word.toLowerCase(java.util.Locale.ROOT), name);
            if (d < bestDistance) {
                best = name;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= Math.max(1, Math.min(3, best.length() / 2))
                ? Optional.of(best)
                : Optional.empty();
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
