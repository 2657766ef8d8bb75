package io.trainplane.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The trees and the text are what an ObjectMapper makes of the same JSON, node type for node type. */
class JsonTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"runId\":\"r-1\",\"spec\":{\"cluster\":{\"mode\":\"create\"},\"n\":[1,2.5,-3e2,null,true,false]}}",
                "[2147483647,2147483648,9223372036854775808,-0.0,1.0E-7,0.01]",
                "{\"text\":\"tab\\t quote\\\" é \\u2603 \\ud83d\\ude00\",\"empty\":{},\"none\":[]}",
                "{\"a\":1,\"a\":2}",
                "\"just text\"",
                "42",
                "null"
            })
    void readsAndWritesAsAnObjectMapperDoes(String json) throws IOException {
        JsonNode expected = MAPPER.readTree(json);

        JsonNode tree = Json.read(json);
        assertThat(tree).isEqualTo(expected);
        assertThat(Json.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(expected);
        assertThat(Json.write(tree)).isEqualTo(MAPPER.writeValueAsString(expected));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean[] closed = {false};
        Json.write(tree, new java.io.FilterOutputStream(out) {
            @Override
            public void close() {
                closed[0] = true;
            }
        });
        assertThat(closed[0]).as("the Lambda runtime's stream is left open").isFalse();
        ByteArrayOutputStream mapped = new ByteArrayOutputStream();
        MAPPER.writeValue(mapped, expected);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(mapped.toString(StandardCharsets.UTF_8));
    }

    @Test
    void emptyInputIsTheMissingNode() throws IOException {
        assertThat(Json.read(new ByteArrayInputStream(new byte[0])).isMissingNode())
                .isTrue();
        assertThat(Json.read("  ").isMissingNode()).isTrue();
    }

    @Test
    void textThatIsNotJsonFails() {
        assertThatThrownBy(() -> Json.read("{\"a\": }"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("Unexpected character");
    }
}
