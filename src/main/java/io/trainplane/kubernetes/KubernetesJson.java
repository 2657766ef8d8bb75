package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimList;
import io.fabric8.kubernetes.api.model.PersistentVolumeList;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.ServiceList;
import io.fabric8.kubernetes.api.model.batch.v1.JobList;
import io.fabric8.kubernetes.api.model.storage.StorageClassList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.trainplane.spec.RunSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * fabric8's JSON mapping, one per Lambda container, shared by the clients {@link EksClusterAccess}
 * builds: Jackson keeps what it learns of a type (its serializer, its deserializer) in the mapper,
 * so what {@link #prime} learns before a SnapStart snapshot is what the first request after the
 * restore uses.
 */
final class KubernetesJson {
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private KubernetesJson() {}

    /**
     * Writes each object of the run and reads it back, as a create sends it and gets it back, and
     * reads an empty list of every kind the steps list: Jackson's class loading and introspection
     * of the typed model, a few hundred milliseconds of the first request otherwise. Offline: no
     * client, no cluster.
     */
    static void prime(RunSpec spec) {
        List<HasMetadata> objects = new ArrayList<>(new WorkloadManifests(spec).all());
        objects.addAll(new VolumeManifests(spec.names(), "fs-00000000").all());
        objects.add(DevicePluginManifests.daemonSet(spec.names()));
        objects.add(DevicePluginManifests.efaDaemonSet(spec.names()));
        for (HasMetadata object : objects) {
            SERIALIZATION.unmarshal(SERIALIZATION.asJson(object), object.getClass());
        }
        for (Class<?> list : List.of(
                PodList.class,
                JobList.class,
                ServiceList.class,
                ConfigMapList.class,
                PersistentVolumeClaimList.class,
                PersistentVolumeList.class,
                StorageClassList.class)) {
            SERIALIZATION.unmarshal("{\"items\":[]}", list);
        }
        SERIALIZATION.unmarshal("{\"metadata\":{\"name\":\"priming\"}}", Namespace.class);
    }
}
