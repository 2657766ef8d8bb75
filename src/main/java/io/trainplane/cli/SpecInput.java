package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Parameters;

/** The SPEC argument every command takes: a file, or '-' for standard input. */
final class SpecInput {
    @Parameters(index = "0", paramLabel = "SPEC", description = "run spec (JSON file, or - for standard input)")
    String path;

    String read() {
        try {
            if ("-".equals(path)) {
                return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return Files.readString(Path.of(path));
        } catch (NoSuchFileException e) {
            throw new UserInputException("no such file: " + path);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + path + ": " + e.getMessage());
        }
    }

    /**
     * The validated spec with its defaults, for a run starting on {@code runDay} (its Kubernetes
     * version still supported by EKS that day); throws InvalidSpecException listing every problem.
     */
    JsonNode normalized(LocalDate runDay) {
        return RunSpecs.normalize(read(), runDay);
    }

    /** The spec's runId, or a fresh one from the time when the spec leaves it out. */
    static String runIdOf(JsonNode normalized) {
        JsonNode runId = normalized.path("runId");
        return runId.isTextual()
                ? runId.asText()
                : "run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }
}
