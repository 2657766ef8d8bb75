package io.trainplane.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;

/** A bare API server for a test: fabric8's mock server in CRUD mode, objects stored as created. */
final class CrudApiServer implements AutoCloseable {
    private final KubernetesMockServer server = new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(new ArrayList<>()),
            false);
    final KubernetesClient client;

    CrudApiServer() {
        server.init(InetAddress.getLoopbackAddress(), 0);
        client = server.createClient(
                b -> b.editOrNewConfig().withHttp2Disable(true).endConfig());
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
