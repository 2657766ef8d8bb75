package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** A parsed intrinsic function invocation and its arguments. */
sealed interface Intrinsic {
    /** A number, boolean or null literal argument. */
    record Literal(JsonNode value) implements Intrinsic {}

    /**
     * A quoted string argument: its value, and the same text cut at each unescaped {@code {}}
     * (what States.Format fills in; escaped braces stay literal).
     */
    record StringLiteral(String value, List<String> formatPieces) implements Intrinsic {
        public StringLiteral {
            formatPieces = List.copyOf(formatPieces);
        }
    }

    /** A path argument, against the payload template's input or ($$) the context object. */
    record PathArg(JsonPathExpr path) implements Intrinsic {}

    /** An invocation such as {@code States.Format('{}', $.x)}; also a nested argument. */
    record Call(String name, List<Intrinsic> args) implements Intrinsic {
        public Call {
            args = List.copyOf(args);
        }
    }
}
