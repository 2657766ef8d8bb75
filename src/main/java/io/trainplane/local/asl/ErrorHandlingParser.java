package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Parses and checks a Task's Retry and Catch arrays. */
final class ErrorHandlingParser {
    private static final Set<String> RETRIER_FIELDS = Set.of(
            "ErrorEquals",
            "IntervalSeconds",
            "MaxAttempts",
            "BackoffRate",
            "MaxDelaySeconds",
            "JitterStrategy",
            "Comment");
    private static final Set<String> CATCHER_FIELDS = Set.of("ErrorEquals", "Next", "ResultPath", "Comment");
    private static final long MAX_SECONDS = 99_999_999L;

    private ErrorHandlingParser() {}

    static List<Retrier> retry(FieldReader state) {
        List<Retrier> retriers = new ArrayList<>();
        JsonNode array = elements(state, "Retry");
        for (int i = 0; i < array.size(); i++) {
            FieldReader retrier = new FieldReader(array.get(i), state.stateName(), "Retry[" + i + "].");
            retrier.allowOnly(RETRIER_FIELDS, "a retrier");
            retrier.string("Comment");
            List<String> errors = errorEquals(retrier, i == array.size() - 1, "retrier");
            Integer interval = retrier.integer("IntervalSeconds", 1, MAX_SECONDS);
            Integer maxAttempts = retrier.integer("MaxAttempts", 0, MAX_SECONDS);
            double backoff = retrier.number("BackoffRate", 1.0, Retrier.DEFAULT_BACKOFF_RATE);
            Integer maxDelay = retrier.integer("MaxDelaySeconds", 1, 31_622_400L);
            String jitter = retrier.string("JitterStrategy");
            if (jitter != null && !jitter.equals("FULL") && !jitter.equals("NONE")) {
                throw retrier.error("JitterStrategy", "must be FULL or NONE, got '" + jitter + "'");
            }
            retriers.add(new Retrier(
                    errors,
                    interval == null ? Retrier.DEFAULT_INTERVAL_SECONDS : interval,
                    maxAttempts == null ? Retrier.DEFAULT_MAX_ATTEMPTS : maxAttempts,
                    backoff,
                    maxDelay,
                    jitter == null ? Retrier.JitterStrategy.NONE : Retrier.JitterStrategy.valueOf(jitter)));
        }
        return retriers;
    }

    static List<Catcher> catchers(FieldReader state) {
        List<Catcher> catchers = new ArrayList<>();
        JsonNode array = elements(state, "Catch");
        for (int i = 0; i < array.size(); i++) {
            FieldReader catcher = new FieldReader(array.get(i), state.stateName(), "Catch[" + i + "].");
            catcher.allowOnly(CATCHER_FIELDS, "a catcher");
            catcher.string("Comment");
            List<String> errors = errorEquals(catcher, i == array.size() - 1, "catcher");
            catchers.add(new Catcher(errors, catcher.resultPath("ResultPath"), catcher.requiredString("Next")));
        }
        return catchers;
    }

    private static JsonNode elements(FieldReader state, String field) {
        JsonNode array = state.get(field);
        if (array == null) {
            return Json.NODES.arrayNode();
        }
        if (!array.isArray()) {
            throw state.error(field, "must be an array");
        }
        return array;
    }

    private static List<String> errorEquals(FieldReader reader, boolean last, String what) {
        List<String> errors = reader.stringArray("ErrorEquals");
        for (String error : errors) {
            if (error.startsWith("States.") && !ErrorNames.KNOWN.contains(error)) {
                throw reader.error("ErrorEquals", "unknown error name '" + error + "'");
            }
        }
        if (errors.contains(ErrorNames.ALL)) {
            if (errors.size() > 1) {
                throw reader.error("ErrorEquals", "States.ALL must appear alone in ErrorEquals");
            }
            if (!last) {
                throw reader.error("ErrorEquals", "States.ALL must be in the last " + what);
            }
        }
        return errors;
    }
}
