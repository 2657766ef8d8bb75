package io.trainplane.cli;

/** {@code --output}: text for people, json for scripts. */
enum OutputFormat {
    text,
    json;

    /** The option's summary in each command's help. */
    static final String HELP =
            "text (default), or json: one JSON object on stdout, an error's too (exit codes as in text)";
}
