package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The command reference (docs/command-line.md, which README.md points to) holds to the command line
 * itself: a command or an option added without its documentation fails the build. The help each
 * command prints is held too: every option once, every option with a summary. (The links of README.md
 * and docs/ are held by {@link io.trainplane.DocsTest}.)
 */
class ReadmeReferenceTest {
    private static final Path REFERENCE = Path.of("docs/command-line.md");
    private static final Set<String> STANDARD = Set.of("--help", "--version");
    private static final String REFERENCE_HEADING = "### Command reference";

    private static final CommandLine CLI = Main.commandLine();

    @Test
    void everyCommandAndOptionIsInTheCommandReference() throws IOException {
        Map<String, String> sections = commandSections(reference(readme()));
        List<String> missing = new ArrayList<>();
        for (CommandLine command : CLI.getSubcommands().values()) {
            String name = command.getCommandName();
            String section = sections.get(name);
            if (section == null) {
                missing.add("command " + name + " (a '#### " + name + "' heading)");
                continue;
            }
            for (OptionSpec option : options(command)) {
                String longest = option.longestName();
                if (!mentions(section, longest)) {
                    missing.add(name + " " + longest);
                }
            }
        }
        assertThat(missing)
                .as(
                        "commands and options of 'trainplane' that docs/command-line.md's '%s' does not document"
                                + " (each command under its own '#### name' heading, each option in it)",
                        REFERENCE_HEADING)
                .isEmpty();
        // Command sections are named in lower case, as the commands; "Exit codes" and the like are not commands.
        assertThat(sections.keySet().stream().filter(name -> Character.isLowerCase(name.charAt(0))))
                .as("docs/command-line.md documents commands 'trainplane' does not have")
                .allMatch(CLI.getSubcommands()::containsKey);
    }

    @Test
    void theExitCodesTableListsEveryExitCodeTheHelpPromises() throws IOException {
        String reference = reference(readme());
        List<String> codes = new ArrayList<>(
                CLI.getCommandSpec().usageMessage().exitCodeList().keySet());
        assertThat(codes).isNotEmpty().allSatisfy(code -> assertThat(reference)
                .as("docs/command-line.md's exit codes table has a row for %s", code)
                .contains("| `" + code.strip() + "` |"));
    }

    @Test
    void everyHelpListsEachOptionOnceWithASummary() {
        List<String> problems = new ArrayList<>();
        List<CommandLine> commands = new ArrayList<>(List.of(CLI));
        commands.addAll(CLI.getSubcommands().values());
        for (CommandLine command : commands) {
            String name = command.getCommandSpec().qualifiedName();
            String optionList = command.getHelp().optionList();
            for (OptionSpec option : command.getCommandSpec().options()) {
                long listed = optionList
                        .lines()
                        .filter(line -> listsOption(line, option))
                        .count();
                if (listed != 1) {
                    problems.add(name + " --help lists " + option.longestName() + " " + listed + " times");
                }
                if (String.join(" ", option.description()).isBlank()) {
                    problems.add(name + " " + option.longestName() + " has no description");
                }
            }
            for (PositionalParamSpec parameter : command.getCommandSpec().positionalParameters()) {
                if (String.join(" ", parameter.description()).isBlank()) {
                    problems.add(name + " " + parameter.paramLabel() + " has no description");
                }
            }
            if (String.join(" ", command.getCommandSpec().usageMessage().description())
                    .isBlank()) {
                problems.add(name + " has no description");
            }
        }
        String commandList = CLI.getHelp().commandList();
        for (String name : CLI.getSubcommands().keySet()) {
            long listed = commandList
                    .lines()
                    .filter(line -> line.startsWith("  " + name + " "))
                    .count();
            if (listed != 1) {
                problems.add("trainplane --help lists the command " + name + " " + listed + " times");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theChecksWouldSeeAnUndocumentedOption() {
        String documented = "#### run\n`trainplane run [--store DIR]`: keeps the run.\n";
        assertThat(mentions(documented, "--store")).isTrue();
        assertThat(mentions("#### run\n`--no-store` keeps nothing\n", "--store"))
                .as("--no-store is not --store")
                .isFalse();
        assertThat(mentions(documented, "--stor")).isFalse();
        String readme = "## The command line\n" + REFERENCE_HEADING + "\n#### run\ntext\n#### list\nmore\n## Next\n";
        assertThat(commandSections(reference(readme))).containsOnlyKeys("run", "list");
        assertThat(commandSections(reference(readme)).get("list")).doesNotContain("Next");
    }

    /** The options a user gives, without the standard help and version ones. */
    private static List<OptionSpec> options(CommandLine command) {
        return command.getCommandSpec().options().stream()
                .filter(o -> !STANDARD.contains(o.longestName()))
                .toList();
    }

    /** Whether {@code text} names {@code option} as a whole word ({@code --store}, not in {@code --no-store}). */
    private static boolean mentions(String text, String option) {
        return Pattern.compile("(?<![\\w-])" + Pattern.quote(option) + "(?![\\w-])")
                .matcher(text)
                .find();
    }

    /** Whether a line of picocli's option list is {@code option}'s entry (its names, then its label or summary). */
    private static boolean listsOption(String line, OptionSpec option) {
        String names = String.join(", ", option.names());
        String entry = line.strip();
        return entry.startsWith(names)
                && (entry.length() == names.length()
                        || !Character.isLetterOrDigit(entry.charAt(names.length()))
                                && entry.charAt(names.length()) != '-');
    }

    private static String readme() throws IOException {
        return Files.readString(REFERENCE);
    }

    /** The command reference: from its heading to the next heading of its level or above. */
    private static String reference(String readme) {
        int start = readme.indexOf("\n" + REFERENCE_HEADING + "\n");
        assertThat(start)
                .as("docs/command-line.md has a '%s' section", REFERENCE_HEADING)
                .isNotNegative();
        int from = start + REFERENCE_HEADING.length() + 2;
        Matcher next = Pattern.compile("\n#{1,3} ").matcher(readme);
        int end = next.find(from) ? next.start() : readme.length();
        return readme.substring(from, end);
    }

    /** The reference's '#### name' sections by name. */
    private static Map<String, String> commandSections(String reference) {
        Map<String, String> sections = new LinkedHashMap<>();
        Matcher heading = Pattern.compile("(?m)^#### (\\S.*)$").matcher(reference);
        List<int[]> bounds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (heading.find()) {
            names.add(heading.group(1).strip());
            bounds.add(new int[] {heading.start(), heading.end()});
        }
        for (int i = 0; i < names.size(); i++) {
            int end = i + 1 < bounds.size() ? bounds.get(i + 1)[0] : reference.length();
            sections.put(names.get(i), reference.substring(bounds.get(i)[1], end));
        }
        return sections;
    }
}
