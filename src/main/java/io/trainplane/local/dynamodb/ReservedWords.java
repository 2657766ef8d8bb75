package io.trainplane.local.dynamodb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * DynamoDB's reserved words, which an expression may not use as attribute names: it names such
 * an attribute with a {@code #placeholder} instead
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ReservedWords.html). The list
 * is the resource {@code reserved-words.txt}, one word a line.
 */
final class ReservedWords {
    private static final Set<String> WORDS = load();

    private ReservedWords() {}

    static boolean isReserved(String name) {
        return WORDS.contains(name.toUpperCase(Locale.ROOT));
    }

    private static Set<String> load() {
        try (var in = ReservedWords.class.getResourceAsStream("reserved-words.txt");
                var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read DynamoDB's reserved words", e);
        }
    }
}
