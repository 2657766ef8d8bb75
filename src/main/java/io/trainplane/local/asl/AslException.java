package io.trainplane.local.asl;

/**
 * A state machine definition the local executor refuses to load: malformed, inconsistent, or using
 * a construct the executor does not implement. Names the state (null at the top level) and the field.
 */
public final class AslException extends RuntimeException {
    private final String stateName;
    private final String field;

    public AslException(String stateName, String field, String message) {
        super(location(stateName, field) + message);
        this.stateName = stateName;
        this.field = field;
    }

    /** The state the problem is in, or null for a top-level field. */
    public String stateName() {
        return stateName;
    }

    /** The field the problem is in, or null when it concerns the definition as a whole. */
    public String field() {
        return field;
    }

    private static String location(String stateName, String field) {
        String where = stateName == null ? "definition" : "state '" + stateName + "'";
        return field == null ? where + ": " : where + ", field '" + field + "': ";
    }
}
