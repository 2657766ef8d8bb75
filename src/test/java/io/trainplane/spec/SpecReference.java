package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * docs/spec-reference.md, made from the run spec's JSON Schema: one table per object of the spec
 * (its fields with type, default, allowed values and description), then the object's rules (its
 * {@code if}/{@code then}). {@link SpecReferenceTest} holds the committed file to it.
 */
final class SpecReference {
    static final Path SCHEMA = Path.of("src/main/resources/run-spec.schema.json");
    static final Path DOC = Path.of("docs/spec-reference.md");
    static final String COMMAND =
            "./mvnw test -Dtest=SpecReferenceTest -Dtrainplane.regenerate=true -Dsurefire.failIfNoSpecifiedTests=false";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> CONSTRAINTS = Set.of(
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
            "uniqueItems");

    private SpecReference() {}

    static String render() {
        try {
            return render(MAPPER.readTree(Files.readString(SCHEMA)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String render(JsonNode schema) {
        StringBuilder doc = new StringBuilder();
        doc.append("# Spec reference\n\n");
        doc.append("<!-- Generated from ")
                .append(SCHEMA)
                .append(" by SpecReferenceTest: do not edit. Regenerate with `")
                .append(COMMAND)
                .append("`. -->\n\n");
        doc.append(oneLine(schema.path("description").asText())).append("\n\n");
        doc.append("Every field below is checked by `./trainplane validate SPEC`, which prints the spec with its ")
                .append("defaults; [the schema](../")
                .append(SCHEMA)
                .append(") is the source. Objects refuse fields they do not list.\n\n");
        List<Section> sections = new ArrayList<>();
        collect("", schema, sections);
        doc.append("| object | |\n| --- | --- |\n");
        for (Section section : sections) {
            doc.append("| [")
                    .append(title(section.path()))
                    .append("](#")
                    .append(anchor(title(section.path())))
                    .append(") | ")
                    .append(cell(
                            firstSentence(section.node().path("description").asText())))
                    .append(" |\n");
        }
        doc.append('\n');
        for (Section section : sections) {
            section(doc, section);
        }
        return doc.toString();
    }

    private record Section(String path, JsonNode node) {}

    /** Every object with fields, depth first in the schema's order. */
    private static void collect(String path, JsonNode node, List<Section> sections) {
        if (node.has("properties")) {
            sections.add(new Section(path, node));
            for (Map.Entry<String, JsonNode> field : node.path("properties").properties()) {
                collect(join(path, field.getKey()), field.getValue(), sections);
            }
        }
        if (node.path("items").isObject()) {
            collect(path + "[]", node.path("items"), sections);
        }
        if (node.path("additionalProperties").isObject()) {
            collect(join(path, "*"), node.path("additionalProperties"), sections);
        }
    }

    private static void section(StringBuilder doc, Section section) {
        JsonNode node = section.node();
        doc.append("## ").append(title(section.path())).append("\n\n");
        if (!section.path().isEmpty() && node.has("description")) {
            doc.append(oneLine(node.path("description").asText())).append("\n\n");
        }
        Set<String> required = StreamSupport.stream(node.path("required").spliterator(), false)
                .map(JsonNode::asText)
                .collect(Collectors.toSet());
        doc.append("| field | type | default | allowed | description |\n| --- | --- | --- | --- | --- |\n");
        for (Map.Entry<String, JsonNode> field : node.path("properties").properties()) {
            JsonNode f = field.getValue();
            String name = "`" + field.getKey() + "`" + (required.contains(field.getKey()) ? " (required)" : "");
            if (f.has("properties")) {
                name = "[" + name + "](#" + anchor(title(join(section.path(), field.getKey()))) + ")";
            }
            doc.append("| ")
                    .append(name)
                    .append(" | ")
                    .append(cell(type(f)))
                    .append(" | ")
                    .append(f.has("default") ? cell("`" + compact(f.get("default")) + "`") : "")
                    .append(" | ")
                    .append(cell(allowed(f)))
                    .append(" | ")
                    .append(cell(description(f)))
                    .append(" |\n");
        }
        doc.append('\n');
        List<String> rules = rules(node);
        if (!rules.isEmpty()) {
            doc.append("Rules:\n\n");
            rules.forEach(rule -> doc.append("- ").append(rule).append('\n'));
            doc.append('\n');
        }
    }

    private static List<String> rules(JsonNode node) {
        List<JsonNode> conditions = new ArrayList<>();
        if (node.has("if")) {
            conditions.add(node);
        }
        node.path("allOf").forEach(conditions::add);
        List<String> rules = new ArrayList<>();
        for (JsonNode condition : conditions) {
            StringBuilder rule = new StringBuilder();
            if (condition.has("if")) {
                rule.append("if `")
                        .append(compact(condition.get("if")))
                        .append("` then `")
                        .append(compact(condition.path("then")))
                        .append('`');
                if (condition.has("else")) {
                    rule.append(", else `")
                            .append(compact(condition.get("else")))
                            .append('`');
                }
            } else {
                rule.append('`').append(compact(condition)).append('`');
            }
            rules.add(rule.toString());
        }
        return rules;
    }

    private static String type(JsonNode f) {
        String type = f.has("type") ? text(f.get("type")) : "any";
        if (f.path("items").has("type")) {
            type += " of " + text(f.path("items").get("type"));
        }
        if (f.path("additionalProperties").isObject()) {
            type += " of "
                    + (f.path("additionalProperties").has("type")
                            ? text(f.path("additionalProperties").get("type"))
                            : "any");
        }
        return type;
    }

    private static String allowed(JsonNode f) {
        List<String> parts = new ArrayList<>();
        if (f.has("enum")) {
            parts.add(StreamSupport.stream(f.get("enum").spliterator(), false)
                    .map(v -> "`" + compact(v) + "`")
                    .collect(Collectors.joining(", ")));
        }
        if (f.has("patternMeaning")) {
            parts.add(f.get("patternMeaning").asText());
        } else if (f.has("pattern")) {
            parts.add("`" + f.get("pattern").asText() + "`");
        }
        for (String constraint : CONSTRAINTS.stream().sorted().toList()) {
            if (f.has(constraint)) {
                parts.add(constraint + " " + compact(f.get(constraint)));
            }
        }
        JsonNode items = f.path("items");
        if (items.has("patternMeaning")) {
            parts.add("each " + items.get("patternMeaning").asText());
        }
        return String.join("; ", parts);
    }

    private static String description(JsonNode f) {
        String description = oneLine(f.path("description").asText());
        if (f.has("examples") && !f.has("properties")) {
            description += (description.isEmpty() ? "" : " ") + "Example: "
                    + StreamSupport.stream(f.get("examples").spliterator(), false)
                            .map(v -> "`" + compact(v) + "`")
                            .collect(Collectors.joining(", "))
                    + ".";
        }
        return description;
    }

    private static String text(JsonNode type) {
        return type.isArray()
                ? StreamSupport.stream(type.spliterator(), false)
                        .map(JsonNode::asText)
                        .collect(Collectors.joining(" or "))
                : type.asText();
    }

    private static String title(String path) {
        return path.isEmpty() ? "The spec" : "`" + path + "`";
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
    static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static String compact(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s*\\n\\s*", " ").strip();
    }

    private static String firstSentence(String text) {
        String line = oneLine(text);
        int stop = line.indexOf(". ");
        return stop < 0 ? line : line.substring(0, stop + 1);
    }

    private static String cell(String text) {
        return oneLine(text).replace("|", "\\|");
    }
}
