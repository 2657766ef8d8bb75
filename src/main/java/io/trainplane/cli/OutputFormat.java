package io.trainplane.cli;

/** {@code --output}: text for people, json for scripts. */
enum OutputFormat {
    text,
    json
}
