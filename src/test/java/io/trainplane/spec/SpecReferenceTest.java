package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * docs/spec-reference.md is what {@link SpecReference} makes of the schema: a field added to the
 * schema without regenerating the reference fails here, naming the command that regenerates it.
 * With {@code -Dtrainplane.regenerate=true} the test writes the file instead.
 */
class SpecReferenceTest {
    @Test
    void theCommittedReferenceIsWhatTheSchemaMakes() throws IOException {
        String made = SpecReference.render();
        String committed = Files.exists(SpecReference.DOC) ? Files.readString(SpecReference.DOC) : "";
        if (committed.equals(made)) {
            return;
        }
        if (Boolean.getBoolean("trainplane.regenerate")) {
            Files.writeString(SpecReference.DOC, made);
            System.out.println("wrote " + SpecReference.DOC);
            return;
        }
        fail(SpecReference.DOC + " is stale: it differs from what " + SpecReference.SCHEMA + " makes of it "
                + firstDifference(committed, made) + ". Regenerate it with `"
                + SpecReference.COMMAND + "`.");
    }

    @Test
    void everyFieldOfTheSchemaHasARow() throws IOException {
        String made = SpecReference.render();
        var schema = new ObjectMapper().readTree(Files.readString(SpecReference.SCHEMA));
        var fields = new java.util.ArrayList<String>();
        schema.path("properties").fieldNames().forEachRemaining(fields::add);
        schema.at("/properties/cluster/properties/nodeGroup/properties")
                .fieldNames()
                .forEachRemaining(fields::add);
        assertThat(fields).hasSizeGreaterThan(15);
        assertThat(fields.stream()
                        .filter(field -> !made.contains("| `" + field + "`") && !made.contains("| [`" + field + "`")))
                .as("fields of the schema without a row in the reference")
                .isEmpty();
        assertThat(made).contains("## `cluster.nodeGroup`", "## `workload.commands.train.env.*`");
    }

    static String firstDifference(String committed, String made) {
        var a = committed.lines().toList();
        var b = made.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String was = i < a.size() ? a.get(i) : "(end of file)";
            String is = i < b.size() ? b.get(i) : "(end of file)";
            if (!was.equals(is)) {
                return "from line " + (i + 1) + " (committed: " + was.strip() + "; made: " + is.strip() + ")";
            }
        }
        return "in line endings";
    }
}
