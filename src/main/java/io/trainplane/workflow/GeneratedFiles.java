package io.trainplane.workflow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files made from {@link Pipeline} and committed where SAM reads them: the state machine
 * definitions (template.yaml's DefinitionUri; the pom also ships them in the jar for local mode),
 * functions.mk (the functions each jar ships, which the Makefile includes for SAM's makefile
 * builder) and template.yaml, whose function and log group resources are written between its
 * markers ({@link TemplateFunctions}). {@value #COMMAND} writes them; StateMachinesTest fails while
 * a committed one differs.
 */
public final class GeneratedFiles {
    /** What regenerates the files. */
    public static final String COMMAND = "make statemachines";

    private GeneratedFiles() {}

    /** Each file by its path from the project's root, with its content; template.yaml's is read under {@code root}. */
    public static Map<String, String> render(Path root) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        for (StateMachineDefinition machine : Pipeline.stateMachines()) {
            files.put("statemachines/" + machine.file(), machine.asl());
        }
        files.put("functions.mk", makefile());
        files.put("template.yaml", TemplateFunctions.splice(Files.readString(root.resolve("template.yaml"))));
        return files;
    }

    /** {@code <ARTIFACT>_FUNCTIONS} and {@code <ARTIFACT>_JAR} for every artifact. */
    static String makefile() {
        StringBuilder mk = new StringBuilder(
                """
                # Made from io.trainplane.workflow.Pipeline by `%s`: change the declaration, not this file.
                # The functions each Lambda artifact ships, and its jar (the Makefile's build-<Name>Function targets).
                """
                        .formatted(COMMAND));
        for (LambdaArtifact artifact : LambdaArtifact.values()) {
            String variable = artifact.name() + "_FUNCTIONS := ";
            mk.append(variable);
            int column = variable.length();
            for (LambdaFunction function : Pipeline.shipping(artifact)) {
                if (column + function.name().length() > 100) {
                    mk.append("\\\n").append(" ".repeat(variable.length()));
                    column = variable.length();
                }
                mk.append(function.name()).append(' ');
                column += function.name().length() + 1;
            }
            mk.setLength(mk.length() - 1);
            mk.append('\n')
                    .append(artifact.name())
                    .append("_JAR := target/")
                    .append(artifact.jarName())
                    .append('\n');
        }
        return mk.toString();
    }

    /** Writes the files that differ under the root given (default: the working directory). */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        for (Map.Entry<String, String> file : render(root).entrySet()) {
            Path path = root.resolve(file.getKey());
            if (!Files.exists(path) || !Files.readString(path).equals(file.getValue())) {
                Files.createDirectories(path.toAbsolutePath().getParent());
                Files.writeString(path, file.getValue());
                System.out.println("wrote " + file.getKey());
            } else {
                System.out.println("up to date: " + file.getKey());
            }
        }
    }
}
