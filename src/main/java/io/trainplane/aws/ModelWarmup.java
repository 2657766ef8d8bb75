package io.trainplane.aws;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/**
 * Loads and initializes the SDK model classes a response (or request) is made of, for SnapStart
 * priming: an offline client answers {@code {}}, so without this the nested types of a real answer
 * (a DescribeCluster's Cluster, its VpcConfigResponse, Logging, ...) and the copiers its lists and
 * maps go through are reached only by the first invocation after a restore. Walks the members'
 * metadata ({@link SdkPojo#sdkFields}) and builds a sample: every nested member built, one element in
 * each list and one entry in each map, strings set, nothing else.
 */
public final class ModelWarmup {
    private static final String SAMPLE = "priming";

    private ModelWarmup() {}

    /** Every model type reachable from this builder's members; returns their builders' classes. */
    public static Set<Class<?>> warm(SdkPojo builder) {
        Set<Class<?>> seen = new HashSet<>();
        sample(builder, seen);
        return seen;
    }

    /** The sample this builder makes (what {@link #warm} builds). */
    static Object sample(SdkPojo builder) {
        return sample(builder, new HashSet<>());
    }

    /** The builder filled and built; null for a type already filled once (the models are recursive). */
    private static Object sample(SdkPojo builder, Set<Class<?>> seen) {
        if (!seen.add(builder.getClass())) {
            return null;
        }
        for (SdkField<?> field : builder.sdkFields()) {
            Object value = sampleValue(field, seen);
            if (value != null) {
                field.set(builder, value);
            }
        }
        return ((SdkBuilder<?, ?>) builder).build();
    }

    private static Object sampleValue(SdkField<?> field, Set<Class<?>> seen) {
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.SDK_POJO) {
            return sample(field.constructor().get(), seen);
        } else if (type == MarshallingType.LIST) {
            Object element = sampleValue(field.getRequiredTrait(ListTrait.class).memberFieldInfo(), seen);
            return element == null ? null : List.of(element);
        } else if (type == MarshallingType.MAP) {
            Object value = sampleValue(field.getRequiredTrait(MapTrait.class).valueFieldInfo(), seen);
            return value == null ? null : Map.of(SAMPLE, value);
        } else if (type == MarshallingType.STRING) {
            return SAMPLE;
        }
        return null;
    }
}
