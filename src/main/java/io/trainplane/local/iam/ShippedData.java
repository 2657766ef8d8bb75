package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The IAM data shipped beside these classes: AWS managed policies, SAM's policy templates, template.yaml. */
final class ShippedData {
    private ShippedData() {}

    static String text(String name) {
        try (InputStream in = ShippedData.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(
                        "io/trainplane/local/iam/" + name + " is missing from the classpath (built by the pom)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String name) {
        return Json.read(text(name));
    }

    /** AWS managed policy ARN → its document, for the managed policies the simulation knows. */
    static final class ManagedPolicies {
        private static final JsonNode DATA = json("aws-managed-policies.json");

        private ManagedPolicies() {}

        /** The document of the managed policy {@code arn}, or null when it is not shipped. */
        static JsonNode document(String arn) {
            for (JsonNode policy : DATA.path("policies")) {
                if (policy.path("arn").asText().equals(arn)) {
                    return policy.get("document");
                }
            }
            return null;
        }

        /** The ARN of the known managed policy called {@code name}, or null. */
        static String arnOf(String name) {
            for (JsonNode policy : DATA.path("policies")) {
                if (policy.path("arn").asText().endsWith("/" + name)) {
                    return policy.path("arn").asText();
                }
            }
            return null;
        }
    }
}
