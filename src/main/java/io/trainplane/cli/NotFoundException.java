package io.trainplane.cli;

/** The run, execution or stack a command names does not exist: exit code {@link Main#NOT_FOUND}. */
final class NotFoundException extends RuntimeException {
    NotFoundException(String message) {
        super(message);
    }
}
