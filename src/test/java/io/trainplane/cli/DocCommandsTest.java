package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.DocsTest;
import io.trainplane.TestTime;
import io.trainplane.local.LocalStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every {@code ./trainplane} command of README.md and docs/ (a line of a {@code sh} block, or a code span
 * of the text) works as written.
 * The ones that need no AWS account (validate, plan, run on the examples, what reads the local store
 * after a run, iam, janitor, init) run here, in-process, on the simulated runtime and a store of
 * their own, and must end with exit 0 (or the exit a {@code # ... exit N} comment on the line
 * promises). The others (against a stack, a real training, placeholders such as {@code SPEC}) must be
 * accepted by the command line's parser. A command met twice runs once. {@code sam} lines name a
 * command the SAM CLI has. Each failure names the document and the line.
 */
class DocCommandsTest {
    private static final Set<String> SAM_COMMANDS = Set.of("build", "deploy", "delete", "validate", "sync", "logs");
    private static final Pattern EXIT_COMMENT = Pattern.compile("#.*\\bexit (\\d+)");
    private static final Map<String, String> PLACEHOLDERS = Map.of(
            "SPEC", "examples/quickstart.json",
            "RUN", "quickstart",
            "NAME", "trainplane",
            "COMMAND", "run",
            "KEY=VALUE", "MaxNodesPerRun=4",
            "FILE", "audit.jsonl",
            "DIR", "my-model");
    private static final Pattern CODE_SPAN = Pattern.compile("`(\\./trainplane [^`]+)`");

    @TempDir
    Path dir;

    record Command(String where, List<String> words, int expectedExit) {}

    @Test
    void everyCommandInTheDocsRunsOrParses() throws IOException {
        Path store = dir.resolve("store");
        List<String> failures = new ArrayList<>();
        Set<List<String>> seen = new LinkedHashSet<>();
        int ran = 0;
        int parsed = 0;
        List<String> timings = new ArrayList<>();
        // The docs read the local store "after a run": the README's first command.
        List<Command> commands = new ArrayList<>();
        commands.add(new Command("(setup)", List.of("./trainplane", "run", "examples/quickstart.json"), 0));
        commands.addAll(commands(DocsTest.documents()));
        for (Command command : commands) {
            List<String> words = command.words().stream().map(this::inTempDir).toList();
            if (!seen.add(words)) {
                continue;
            }
            String[] args = words.subList(1, words.size()).toArray(String[]::new);
            if (words.get(0).equals("sam")) {
                if (args.length == 0 || !SAM_COMMANDS.contains(args[0])) {
                    failures.add(command.where() + ": " + String.join(" ", words) + " is no SAM CLI command");
                }
                continue;
            }
            if (runsHere(words)) {
                ran++;
                long started = System.nanoTime();
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int exit = Main.commandLine(clients(store))
                        .setOut(new PrintWriter(out, true))
                        .setErr(new PrintWriter(err, true))
                        .execute(args);
                timings.add(String.format("%5.1f s %s", (System.nanoTime() - started) / 1e9, String.join(" ", args)));
                if (exit != command.expectedExit()) {
                    failures.add(command.where() + ": " + String.join(" ", command.words()) + " exited " + exit
                            + " (expected " + command.expectedExit() + "): " + tail(err + "\n" + out));
                }
            } else {
                parsed++;
                String[] filled = words.stream()
                        .skip(1)
                        .map(w -> PLACEHOLDERS.getOrDefault(w, w.matches("<[^>]+>") ? "trainplane" : w))
                        .map(this::inTempDir)
                        .toArray(String[]::new);
                try {
                    Main.commandLine().parseArgs(filled);
                } catch (CommandLine.ParameterException e) {
                    failures.add(command.where() + ": " + String.join(" ", command.words()) + " does not parse: "
                            + e.getMessage());
                }
            }
        }
        System.out.println("DocCommandsTest: ran " + ran + " commands, parsed " + parsed + "; the slowest:\n  "
                + String.join(
                        "\n  ",
                        timings.stream()
                                .sorted(java.util.Comparator.reverseOrder())
                                .limit(6)
                                .toList()));
        assertThat(ran).as("doc commands run").isGreaterThan(8);
        assertThat(parsed).as("doc commands parsed").isGreaterThan(8);
        assertThat(failures).as("commands of README.md and docs/ that fail").isEmpty();
    }

    @Test
    void everyCommandPrintsItsHelp() {
        List<String> failures = new ArrayList<>();
        for (String name : Main.commandLine().getSubcommands().keySet()) {
            StringWriter out = new StringWriter();
            int exit = Main.commandLine(clients(dir.resolve("store")))
                    .setOut(new PrintWriter(out, true))
                    .setErr(new PrintWriter(new StringWriter(), true))
                    .execute(name, "--help");
            if (exit != 0 || !out.toString().contains("Usage: trainplane " + name)) {
                failures.add("trainplane " + name + " --help: exit " + exit + ", " + tail(out.toString()));
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void theCommandsAreReadAsAShellWouldSplitThem() throws IOException {
        Path doc = dir.resolve("doc.md");
        Files.writeString(
                doc,
                """
                Text ./trainplane run not-a-command.json, but `./trainplane janitor` is one.

                ```sh
                ./trainplane validate examples/quickstart.json --output yaml   # a comment
                ./trainplane run a.json --no-store --fail-at StartTraining   # ends FAILED, exit 1
                sam build && sam deploy --guided
                ./trainplane start "my spec.json" \\
                  --stack s
                echo not ours
                ```

                ```json
                {"./trainplane": 1}
                ```
                """);
        assertThat(commands(List.of(doc)))
                .containsExactly(
                        new Command(doc + ":1", List.of("./trainplane", "janitor"), 0),
                        new Command(
                                doc + ":4",
                                List.of("./trainplane", "validate", "examples/quickstart.json", "--output", "yaml"),
                                0),
                        new Command(
                                doc + ":5",
                                List.of("./trainplane", "run", "a.json", "--no-store", "--fail-at", "StartTraining"),
                                1),
                        new Command(doc + ":6", List.of("sam", "build"), 0),
                        new Command(doc + ":6", List.of("sam", "deploy", "--guided"), 0),
                        new Command(doc + ":7", List.of("./trainplane", "start", "my spec.json", "--stack", "s"), 0));
        assertThat(runsHere(List.of("./trainplane", "start", "x.json", "--stack", "s")))
                .isFalse();
        assertThat(runsHere(List.of("./trainplane", "run", "SPEC"))).isFalse();
        assertThat(runsHere(List.of("./trainplane", "run", "x.json", "--runtime", "process")))
                .isFalse();
        assertThat(runsHere(List.of("./trainplane", "status", "quickstart", "--local")))
                .isTrue();
    }

    /** The trainplane and sam commands of the documents' sh blocks, in order. */
    static List<Command> commands(List<Path> documents) throws IOException {
        List<Command> commands = new ArrayList<>();
        for (Path document : documents) {
            List<String> lines = Files.readAllLines(document);
            boolean inShell = false;
            boolean inBlock = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.startsWith("```")) {
                    inShell = !inBlock && line.matches("```(sh|bash|shell)");
                    inBlock = !inBlock;
                    continue;
                }
                if (!inShell) {
                    if (!inBlock) {
                        Matcher span = CODE_SPAN.matcher(line);
                        while (span.find()) {
                            commands.add(new Command(
                                    document + ":" + (i + 1),
                                    split(span.group(1)).get(0),
                                    0));
                        }
                    }
                    continue;
                }
                int first = i;
                StringBuilder joined = new StringBuilder(line);
                while (joined.toString().endsWith("\\") && i + 1 < lines.size()) {
                    joined.setLength(joined.length() - 1);
                    joined.append(' ').append(lines.get(++i).strip());
                }
                Matcher exit = EXIT_COMMENT.matcher(joined);
                int expected = exit.find() ? Integer.parseInt(exit.group(1)) : 0;
                for (List<String> words : split(joined.toString())) {
                    if (!words.isEmpty()
                            && List.of("./trainplane", "trainplane", "sam").contains(words.get(0))) {
                        String name = words.get(0).equals("trainplane") ? "./trainplane" : words.get(0);
                        List<String> command = new ArrayList<>(words);
                        command.set(0, name);
                        commands.add(new Command(document + ":" + (first + 1), command, expected));
                    }
                }
            }
        }
        return commands;
    }

    /** A shell line's simple commands (split at &&, ;, | and >; up to a # comment), each as its words. */
    static List<List<String>> split(String line) {
        List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        boolean cut = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'' || c == '"') {
                int end = line.indexOf(c, i + 1);
                end = end < 0 ? line.length() : end;
                word = word == null ? new StringBuilder() : word;
                word.append(line, i + 1, end);
                i = end;
            } else if (Character.isWhitespace(c) || c == ';' || c == '&' || c == '|' || c == '>') {
                if (word != null) {
                    if (!cut) {
                        words.add(word.toString());
                    }
                    word = null;
                }
                if (c == ';' || c == '&' || c == '|') {
                    if (!words.isEmpty()) {
                        commands.add(words);
                    }
                    words = new ArrayList<>();
                    cut = false;
                } else if (c == '>') {
                    cut = true;
                }
            } else if (c == '#' && word == null) {
                break;
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null && !cut) {
            words.add(word.toString());
        }
        if (!words.isEmpty()) {
            commands.add(words);
        }
        return commands;
    }

    /** Whether the command runs here: no AWS, no real training, no placeholder, nothing to follow. */
    static boolean runsHere(List<String> words) {
        List<String> args = words.subList(1, words.size());
        boolean local = args.contains("--local") || args.contains("--store");
        return words.get(0).equals("./trainplane")
                && !args.isEmpty()
                && !(args.get(0).equals("start") && !local)
                && args.stream().noneMatch(a -> a.equals("--stack") || a.startsWith("--stack=") || a.equals("--table"))
                && args.stream().noneMatch(a -> a.equals("--follow") || a.equals("-f"))
                && !String.join(" ", args).contains("--runtime process")
                && args.stream().noneMatch(a -> PLACEHOLDERS.containsKey(a) || a.matches(".*<[^>]+>.*"));
    }

    /** A starter's directory ({@code my-model}) goes into the test's directory, never the checkout. */
    private String inTempDir(String word) {
        return word.equals("my-model") || word.startsWith("my-model/")
                ? dir.resolve(word).toString()
                : word;
    }

    /** The command line with its own local store, on the tests' day, with no python: the simulated runtime. */
    private static CliClients clients(Path store) {
        return RunFixtures.withClock(
                RunFixtures.withEnvironment(
                        CliClients.standard(), Map.of(LocalStore.HOME_VARIABLE, store.toString()), () -> {}),
                TestTime.clock());
    }

    private static String tail(String text) {
        List<String> lines = text.strip().lines().toList();
        return String.join(" / ", lines.subList(Math.max(0, lines.size() - 6), lines.size()));
    }
}
