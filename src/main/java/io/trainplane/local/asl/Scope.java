package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.Supplier;

/**
 * What a payload template or an intrinsic function is evaluated against.
 *
 * @param input the template's input ({@code $})
 * @param context the context object ({@code $$})
 * @param uuids the source of States.UUID values (deterministic per execution)
 */
record Scope(JsonNode input, JsonNode context, Supplier<String> uuids) {}
