package io.trainplane.runs;

import java.util.List;
import java.util.Objects;

/**
 * What a run really used, priced: one line per thing billed (quantity × unit price), the total in
 * USD, the price table that priced it, the hours from the run's start to the end of its cleanup,
 * and how each quantity was measured or, where the workflow cannot see it, estimated
 * ({@code basis}). Written once when the run ends; at most {@link #MAX_LINES} lines and
 * {@link #MAX_BASIS} notes, so the run item stays small.
 */
public record RunCost(String priceTable, double hours, List<Line> lines, double total, List<String> basis) {
    public static final int MAX_LINES = 16;
    public static final int MAX_BASIS = 12;

    /** {@code unitPrice} and {@code cost} are null when the table has no price for the item (left out of the total). */
    public record Line(String item, double quantity, String unit, Double unitPrice, Double cost) {
        public Line {
            Objects.requireNonNull(item, "item");
            Objects.requireNonNull(unit, "unit");
            if (!Double.isFinite(quantity) || quantity < 0) {
                throw new IllegalArgumentException(
                        "cost line " + item + ": quantity must be finite and >= 0: " + quantity);
            }
        }
    }

    public RunCost {
        Objects.requireNonNull(priceTable, "priceTable");
        lines = List.copyOf(lines);
        basis = List.copyOf(basis);
        if (lines.size() > MAX_LINES || basis.size() > MAX_BASIS) {
            throw new IllegalArgumentException("a run cost holds at most " + MAX_LINES + " lines and " + MAX_BASIS
                    + " notes: " + lines.size() + ", " + basis.size());
        }
        if (!Double.isFinite(total) || total < 0 || !Double.isFinite(hours) || hours < 0) {
            throw new IllegalArgumentException(
                    "run cost: total and hours must be finite and >= 0: " + total + ", " + hours);
        }
    }

    /** The lines without a price, which the total leaves out. */
    public List<String> unpriced() {
        return lines.stream().filter(l -> l.unitPrice() == null).map(Line::item).toList();
    }
}
