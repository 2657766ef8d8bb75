package io.trainplane.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.trainplane.core.Json;
import java.io.UncheckedIOException;
import java.util.List;

/** {@code --output}: text for people, json or yaml for scripts (the same document either way). */
enum OutputFormat {
    text,
    json,
    yaml;

    /** The option's summary in each command's help. */
    static final String HELP = "text (default), json or yaml: one document on stdout, an error's too (exit codes as in"
            + " text; watch writes one document per change)";

    /** Quotes only where YAML needs them (kind: Job, replicas: 2, image: "1.0" stays a string), as kubectl writes. */
    private static final YAMLMapper YAML = new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build());

    /** Whether the output is a document for scripts rather than text for people. */
    boolean structured() {
        return this != text;
    }

    /** {@code document} in this format: one line of JSON, or a YAML document starting with "---". */
    String write(JsonNode document) {
        if (this != yaml) {
            return Json.write(document);
        }
        try {
            return YAML.writeValueAsString(document).stripTrailing();
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The format asked for among raw arguments ({@code --output yaml}, {@code --output=json}), for
     * errors found before picocli has parsed them; text when none or an unknown one is given.
     */
    static OutputFormat in(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if ("--".equals(arg)) {
                break;
            }
            String value = arg.startsWith("--output=")
                    ? arg.substring("--output=".length())
                    : arg.equals("--output") && i + 1 < args.size() ? args.get(i + 1) : null;
            if (value != null) {
                // case-insensitive, as picocli reads the enum
                for (OutputFormat format : values()) {
                    if (format.name().equalsIgnoreCase(value)) {
                        return format;
                    }
                }
            }
        }
        return text;
    }
}
