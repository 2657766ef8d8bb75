package io.trainplane.local.dynamodb;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An item's size as DynamoDB counts it: each attribute's name in UTF-8 bytes plus its value
 * (strings in UTF-8 bytes, binary in bytes, a number about one byte per two significant digits
 * plus one, a Boolean or null one byte, a list or map 3 bytes plus its elements and one byte
 * each) (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
 * An item is at most 400 KB
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-items),
 * and a Query or Scan page reads at most 1 MB
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html).
 */
final class ItemSize {
    static final long MAX_ITEM = 400 * 1024;
    static final long MAX_PAGE = 1024 * 1024;

    private ItemSize() {}

    static long of(Map<String, AttributeValue> item) {
        long size = 0;
        for (var e : item.entrySet()) {
            size += utf8(e.getKey()) + of(e.getValue());
        }
        return size;
    }

    static void requireWithinLimit(Map<String, AttributeValue> item) {
        if (of(item) > MAX_ITEM) {
            throw Errors.validation("Item size has exceeded the maximum allowed size");
        }
    }

    private static long of(AttributeValue v) {
        return switch (v.type()) {
            case S -> utf8(v.s());
            case N -> number(v.n());
            case B -> v.b().asByteArray().length;
            case BOOL, NUL -> 1;
            case SS -> v.ss().stream().mapToLong(ItemSize::utf8).sum();
            case NS -> v.ns().stream().mapToLong(ItemSize::number).sum();
            case BS -> v.bs().stream().mapToLong(b -> b.asByteArray().length).sum();
            case L -> 3 + v.l().stream().mapToLong(e -> 1 + of(e)).sum();
            case M ->
                3
                        + v.m().entrySet().stream()
                                .mapToLong(e -> 1 + utf8(e.getKey()) + of(e.getValue()))
                                .sum();
            default -> 0;
        };
    }

    private static long number(String n) {
        return (new BigDecimal(n).stripTrailingZeros().precision() + 1) / 2 + 1;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
