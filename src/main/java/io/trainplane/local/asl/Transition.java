package io.trainplane.local.asl;

/**
 * Where a state goes when it completes: the next state, or the end of the execution.
 *
 * @param next the next state's name, or null for End
 */
record Transition(String next) {
    static final Transition END = new Transition(null);

    boolean isEnd() {
        return next == null;
    }
}
