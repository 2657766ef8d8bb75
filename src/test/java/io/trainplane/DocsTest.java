package io.trainplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README.md stays a page a new user reads whole (what it is, the two commands, deploy and delete, one
 * spec, where to read more), and README.md and docs/ point only at what is there: every relative link
 * resolves inside the repository (a user's clone has nothing beside it), its heading included.
 */
public class DocsTest {
    static final Path README = Path.of("README.md");
    static final Path DOCS = Path.of("docs");
    static final int README_LINES = 250;

    /** README.md, then docs/*.md by name. */
    public static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(README));
        try (Stream<Path> files = Files.list(DOCS)) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    @Test
    void theReadmeFitsOnAScreenOrThreeAndHoldsTheTwoCommandsThenDeployAndDelete() throws IOException {
        List<String> lines = Files.readAllLines(README);
        assertThat(lines.size()).as("README.md's lines").isLessThanOrEqualTo(README_LINES);
        String readme = String.join("\n", lines);
        int run = readme.indexOf("./trainplane run examples/quickstart.json\n");
        int verify = readme.indexOf("./mvnw verify\n");
        int deploy = readme.indexOf("sam build && sam deploy --guided\n");
        int delete = readme.indexOf("sam delete\n");
        assertThat(List.of(run, verify, deploy, delete))
                .as("README.md's run, test, deploy and delete commands, each on a line of its own")
                .allMatch(i -> i >= 0);
        assertThat(run).as("the run command comes first").isLessThan(verify);
        assertThat(verify).as("then the tests").isLessThan(deploy);
        assertThat(deploy).as("then deploying, then deleting").isLessThan(delete);
        assertThat(lines)
                .as(
                        "README.md lines of more than 400 characters: a screen holds them no better than a table cell of 2,000")
                .allMatch(line -> line.length() <= 400);
    }

    @Test
    void theReadmesSpecIsTheQuickstartExample() throws IOException {
        Matcher block = Pattern.compile("(?s)```json\n(.*?)```").matcher(Files.readString(README));
        assertThat(block.find()).as("README.md shows one spec").isTrue();
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        assertThat(mapper.readTree(block.group(1)))
                .as("README.md's spec, as examples/quickstart.json has it")
                .isEqualTo(mapper.readTree(Files.readString(Path.of("examples/quickstart.json"))));
    }

    @Test
    void theReadmeLinksEveryDocument() throws IOException {
        String readme = Files.readString(README);
        assertThat(documents().stream()
                        .filter(d -> !d.equals(README))
                        .filter(d -> !readme.contains("](" + d.toString().replace('\\', '/') + ")")))
                .as("docs/ files README.md does not link")
                .isEmpty();
    }

    @Test
    void linksResolveInsideTheRepository() throws IOException {
        Path root = Path.of("").toAbsolutePath().normalize();
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path document : documents()) {
            String text = Files.readString(document);
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (Stream.of("/work/", "~/").anyMatch(line::contains)
                        || document.equals(README) && Stream.of("../", "..\\").anyMatch(line::contains)) {
                    broken.add(document + ":" + (i + 1) + " names a path outside the repository: " + line.strip());
                }
                Matcher link = Pattern.compile("\\]\\(([^)\\s]+)\\)").matcher(line);
                while (link.find()) {
                    String target = link.group(1);
                    if (target.matches("(?i)(https?|mailto):.*")) {
                        continue;
                    }
                    links++;
                    String problem = problem(root, document, target);
                    if (problem != null) {
                        broken.add(document + ":" + (i + 1) + " links " + target + " (" + problem + ")");
                    }
                }
            }
        }
        assertThat(links).as("relative links found in README.md and docs/").isGreaterThan(50);
        assertThat(broken).as("links that do not resolve inside the repository").isEmpty();
    }

    @Test
    void everyStackParameterHasARowInDeploying() throws IOException {
        String template = Files.readString(Path.of("template.yaml"));
        String parameters =
                template.substring(template.indexOf("\nParameters:\n"), template.indexOf("\nConditions:\n"));
        List<String> names = Pattern.compile("(?m)^  ([A-Za-z0-9]+):$")
                .matcher(parameters)
                .results()
                .map(m -> m.group(1))
                .toList();
        String deploying = Files.readString(DOCS.resolve("deploying.md"));
        assertThat(names).hasSizeGreaterThan(10);
        assertThat(names.stream().filter(name -> !deploying.contains("| `" + name + "` |")))
                .as("template.yaml parameters without a row in docs/deploying.md's parameters table")
                .isEmpty();
    }

    @Test
    void theChecksWouldSeeABrokenLink() {
        Path root = Path.of("").toAbsolutePath().normalize();
        assertThat(problem(root, DOCS.resolve("concepts.md"), "../template.yaml"))
                .isNull();
        assertThat(problem(root, DOCS.resolve("concepts.md"), "template.yaml")).isEqualTo("no such file");
        assertThat(problem(root, DOCS.resolve("concepts.md"), "../../x")).isEqualTo("outside the repository");
        assertThat(problem(root, README, "docs/deploying.md#deleting-the-stack"))
                .isNull();
        assertThat(problem(root, README, "docs/deploying.md#no-such-heading")).isEqualTo("no such heading");
    }

    /** What is wrong with {@code target} as a link of {@code document}, or null. */
    static String problem(Path root, Path document, String target) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty()
                ? root.resolve(document).normalize()
                : root.resolve(document).getParent().resolve(file).normalize();
        if (!resolved.startsWith(root)) {
            return "outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash >= 0 && resolved.toString().endsWith(".md")) {
            try {
                if (!anchors(Files.readString(resolved)).contains(target.substring(hash + 1))) {
                    return "no such heading";
                }
            } catch (IOException e) {
                return e.toString();
            }
        }
        return null;
    }

    /** GitHub's anchors of the headings: lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> anchors(String markdown) {
        return markdown.lines()
                .filter(line -> line.matches("#{1,6} .*"))
                .map(line -> line.replaceFirst("^#+ ", "")
                        .strip()
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-'))
                .collect(Collectors.toSet());
    }
}
