package io.trainplane.aws;

import java.util.HashSet;
import java.util.Set;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;

/**
 * Loads and initializes the SDK model classes a response (or request) is made of, for SnapStart
 * priming: an offline client answers {@code {}}, so without this the nested types of a real answer
 * (a DescribeCluster's Cluster, its VpcConfigResponse, Logging, ...) are loaded only by the first
 * invocation after a restore. Walks the members' metadata ({@link SdkPojo#sdkFields}); builds nothing
 * but empty builders.
 */
public final class ModelWarmup {
    private ModelWarmup() {}

    /** Every model type reachable from this builder's members; returns their builders' classes. */
    public static Set<Class<?>> warm(SdkPojo builder) {
        Set<Class<?>> seen = new HashSet<>();
        warm(builder, seen);
        return seen;
    }

    private static void warm(SdkPojo builder, Set<Class<?>> seen) {
        if (!seen.add(builder.getClass())) {
            return;
        }
        for (SdkField<?> field : builder.sdkFields()) {
            warmMember(field, seen);
        }
    }

    private static void warmMember(SdkField<?> field, Set<Class<?>> seen) {
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.SDK_POJO) {
            warm(field.constructor().get(), seen);
        } else if (type == MarshallingType.LIST) {
            warmMember(field.getRequiredTrait(ListTrait.class).memberFieldInfo(), seen);
        } else if (type == MarshallingType.MAP) {
            warmMember(field.getRequiredTrait(MapTrait.class).valueFieldInfo(), seen);
        }
    }
}
