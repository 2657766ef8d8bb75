package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
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

    /** A run spec is a few KB; more than this is the wrong file (a model, a data set, /dev/zero). */
    static final int MAX_BYTES = 1024 * 1024;

    /** The text read, kept: standard input can be read only once. */
    private String text;

    String read() {
        if (text == null) {
            text = readOnce();
        }
        return text;
    }

    private String readOnce() {
        String name = "-".equals(path) ? "standard input" : path;
        byte[] bytes;
        try (InputStream in = "-".equals(path) ? System.in : Files.newInputStream(Path.of(path))) {
            // At most one byte over the limit: enough to refuse, whatever the size of what was named.
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw new UserInputException("no such file: " + path);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + name + ": " + e.getMessage());
        }
        return decode(name, bytes);
    }

    /** The spec's text: UTF-8 without a byte order mark (RFC 8259 §8.1), at most {@link #MAX_BYTES}. */
    static String decode(String name, byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new UserInputException(name + " is over 1 MB: a run spec is a JSON file of a few KB; check that "
                    + "you named the spec, not a model or a data set");
        }
        if (bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF) {
            throw new UserInputException(name + " starts with a UTF-8 byte order mark, which JSON does not allow: "
                    + "save it as UTF-8 without BOM");
        }
        ByteBuffer input = ByteBuffer.wrap(bytes);
        CharsetDecoder utf8 = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer text = CharBuffer.allocate(bytes.length);
        CoderResult result = utf8.decode(input, text, true);
        if (!result.isError()) {
            result = utf8.flush(text);
        }
        if (result.isError()) {
            int offset = input.position();
            int line = 1;
            for (int i = 0; i < offset; i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new UserInputException(String.format(
                    "%s is not UTF-8: byte %d (0x%02X, line %d) is not valid UTF-8; save the file as UTF-8"
                            + " (e.g. iconv -f LATIN1 -t UTF-8)",
                    name, offset, bytes[offset] & 0xff, line));
        }
        return text.flip().toString();
    }

    /**
     * The validated spec with its defaults, for a run starting on {@code runDay} (its Kubernetes
     * version still supported by EKS that day) in {@code region} (its instance types sold there);
     * throws InvalidSpecException listing every problem.
     */
    JsonNode normalized(LocalDate runDay, String region) {
        return RunSpecs.normalize(read(), runDay, region);
    }

    /** The spec's runId, or a fresh one from the time when the spec leaves it out. */
    static String runIdOf(JsonNode normalized) {
        JsonNode runId = normalized.path("runId");
        return runId.isTextual()
                ? runId.asText()
                : "run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }
}
