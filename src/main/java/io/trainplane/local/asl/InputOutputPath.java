package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;

/**
 * An InputPath or OutputPath: absent means {@code $} (everything), JSON null means the empty object.
 *
 * @param path the path, or null for a field set to JSON null
 */
record InputOutputPath(String field, JsonPathExpr path) {
    static InputOutputPath root(String field) {
        return new InputOutputPath(field, JsonPathExpr.parse("$", false));
    }

    static InputOutputPath discard(String field) {
        return new InputOutputPath(field, null);
    }

    /** Applies the path; a path that names nothing is a States.Runtime error, as on AWS. */
    JsonNode select(JsonNode document) {
        if (path == null) {
            return Json.object();
        }
        if (path.isRoot()) {
            return document;
        }
        return path.read(document)
                .orElseThrow(() -> StatesError.runtime("Invalid path '" + path.text() + "' : No results for path: "
                        + path.text() + " (" + field + ", input: " + Json.write(document) + ")"));
    }
}
