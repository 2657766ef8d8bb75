package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What this version of Trainplane can run. The schema describes every spec Trainplane will
 * accept; the features listed here are refused before anything is created, each with what to use
 * instead. Enabling a feature is deleting its line.
 */
public final class Capabilities {
    /** A value of the spec that is valid but not built yet. */
    record NotYet(String pointer, String value, String feature, String instead) {}

    private static final List<NotYet> NOT_YET = List.of();

    private Capabilities() {}

    /** The features {@code spec} asks for that this version refuses; empty when it can run. */
    public static List<SpecProblem> unsupported(RunSpec spec) {
        return unsupported(spec.toJson());
    }

    /**
     * The same check on a spec document, valid or not, so refusals are reported together with
     * schema errors.
     */
    static List<SpecProblem> unsupported(JsonNode document) {
        List<SpecProblem> problems = new ArrayList<>();
        for (NotYet feature : NOT_YET) {
            JsonNode value = document.at(feature.pointer());
            if (value.isTextual() && value.asText().equals(feature.value())) {
                problems.add(new SpecProblem(
                        feature.pointer(),
                        feature.feature() + " is not available yet in this version of Trainplane",
                        feature.instead()));
            }
        }
        return problems;
    }
}
