package io.trainplane.aws.ec2;

import io.trainplane.spec.InstanceShapes;

/**
 * How many EFA interfaces an instance type takes: its MaximumEfaInterfaces in the EC2 instance
 * catalog ({@link InstanceShapes}), one per network card on the multi-card types (p4d 4, p5 32,
 * trn1 8). A type the catalog does not know gets one (on the primary card), which every
 * EFA-capable type accepts, only with less bandwidth on those with several cards.
 */
public final class EfaInterfaces {
    private EfaInterfaces() {}

    /** The number of EFA interfaces to give an instance of this type: 1 when unknown. */
    public static int count(String instanceType) {
        return InstanceShapes.of(instanceType)
                .map(InstanceShapes.Shape::efaInterfaces)
                .filter(n -> n > 0)
                .orElse(1);
    }

    /** Whether the catalog knows the type as EFA-capable (an unknown one still gets one interface). */
    public static boolean known(String instanceType) {
        return InstanceShapes.of(instanceType).map(s -> s.efaInterfaces() > 0).orElse(false);
    }
}
