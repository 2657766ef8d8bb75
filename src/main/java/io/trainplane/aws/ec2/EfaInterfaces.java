package io.trainplane.aws.ec2;

import java.util.Map;
import java.util.Set;

/**
 * How many EFA interfaces an instance type takes: one per network card. Only the training types
 * Trainplane is used with are listed; an unknown type gets one (on the primary card), which every
 * EFA-capable type accepts, only with less bandwidth on those with several cards.
 */
public final class EfaInterfaces {
    private static final Map<String, Integer> MULTI_CARD = Map.of(
            "p4d.24xlarge", 4,
            "p4de.24xlarge", 4,
            "p5.48xlarge", 32,
            "p5e.48xlarge", 32,
            "p5en.48xlarge", 16,
            "trn1.32xlarge", 8,
            "trn1n.32xlarge", 16);
    /** g5 and g6: the sizes that support EFA, each with one network card. */
    private static final Set<String> SINGLE_CARD_FAMILIES = Set.of("g5", "g6");

    private static final Set<String> SINGLE_CARD_SIZES =
            Set.of("8xlarge", "12xlarge", "16xlarge", "24xlarge", "48xlarge");

    private EfaInterfaces() {}

    /** The number of EFA interfaces to give an instance of this type: 1 when unknown. */
    public static int count(String instanceType) {
        return MULTI_CARD.getOrDefault(instanceType, 1);
    }

    /** Whether the table knows the type as EFA-capable (an unknown one still gets one interface). */
    public static boolean known(String instanceType) {
        if (MULTI_CARD.containsKey(instanceType)) {
            return true;
        }
        int dot = instanceType.indexOf('.');
        return dot > 0
                && SINGLE_CARD_FAMILIES.contains(instanceType.substring(0, dot))
                && SINGLE_CARD_SIZES.contains(instanceType.substring(dot + 1));
    }
}
