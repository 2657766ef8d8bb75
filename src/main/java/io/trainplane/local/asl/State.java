package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The states of a loaded definition: one record per state type the executor implements. */
sealed interface State {
    String name();

    /** The AWS history prefix of the state's events, e.g. "Task" for TaskStateEntered. */
    String eventPrefix();

    /**
     * @param parameters null when absent
     * @param resultSelector null when absent
     * @param timeoutSeconds null when absent (AWS's default: 99999999 s)
     */
    record Task(
            String name,
            String resource,
            InputOutputPath inputPath,
            PayloadTemplate parameters,
            PayloadTemplate resultSelector,
            ResultPath resultPath,
            InputOutputPath outputPath,
            List<Retrier> retry,
            List<Catcher> catchers,
            Integer timeoutSeconds,
            Transition transition)
            implements State {
        public Task {
            retry = List.copyOf(retry);
            catchers = List.copyOf(catchers);
        }

        @Override
        public String eventPrefix() {
            return "Task";
        }
    }

    /**
     * @param parameters null when absent
     * @param result null when absent (then the result is the effective input)
     */
    record Pass(
            String name,
            InputOutputPath inputPath,
            PayloadTemplate parameters,
            JsonNode result,
            ResultPath resultPath,
            InputOutputPath outputPath,
            Transition transition)
            implements State {
        @Override
        public String eventPrefix() {
            return "Pass";
        }
    }

    /** @param defaultNext null when there is no Default */
    record Choice(
            String name,
            InputOutputPath inputPath,
            List<ChoiceRule.Branch> choices,
            String defaultNext,
            InputOutputPath outputPath)
            implements State {
        public Choice {
            choices = List.copyOf(choices);
        }

        @Override
        public String eventPrefix() {
            return "Choice";
        }
    }

    record Wait(
            String name, InputOutputPath inputPath, WaitTime time, InputOutputPath outputPath, Transition transition)
            implements State {
        @Override
        public String eventPrefix() {
            return "Wait";
        }
    }

    record Succeed(String name, InputOutputPath inputPath, InputOutputPath outputPath) implements State {
        @Override
        public String eventPrefix() {
            return "Succeed";
        }
    }

    /**
     * Error and Cause are each given literally or as a path / intrinsic (ErrorPath, CausePath);
     * all may be absent.
     */
    record Fail(String name, String error, String cause, FailField errorPath, FailField causePath) implements State {
        @Override
        public String eventPrefix() {
            return "Fail";
        }
    }

    /** An ErrorPath or CausePath: a path or an intrinsic function, applied to the state input. */
    record FailField(String field, JsonPathExpr path, Intrinsic.Call intrinsic) {}
}
