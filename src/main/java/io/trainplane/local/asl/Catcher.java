package io.trainplane.local.asl;

import java.util.List;

/** One element of a Task's Catch: which errors it handles, where the error output goes, the next state. */
record Catcher(List<String> errorEquals, ResultPath resultPath, String next) {
    Catcher {
        errorEquals = List.copyOf(errorEquals);
    }

    boolean matches(String error) {
        return ErrorNames.matches(errorEquals, error);
    }
}
