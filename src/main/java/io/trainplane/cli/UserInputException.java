package io.trainplane.cli;

/** A mistake on the command line (a missing file, an unknown state name): exit 2, no stack trace. */
final class UserInputException extends RuntimeException {
    UserInputException(String message) {
        super(message);
    }
}
