package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A lost instance's node is gone until the node group's replacement registers, under another name. */
class ClusterTroubleTest {
    @Test
    void aReplacementInstanceHasAnotherName() {
        String node = "ip-10-0-57-11.eu-west-1.compute.internal";
        assertThat(ClusterTrouble.replacementName(node))
                .isEqualTo("ip-10-0-57-121.eu-west-1.compute.internal")
                .isNotEqualTo(node);
        assertThat(ClusterTrouble.replacementName("ip-10-0-57-200.eu-west-1.compute.internal"))
                .isEqualTo("ip-10-0-57-70.eu-west-1.compute.internal");
    }

    @Test
    void untouchedNodesKeepTheirNames() {
        ClusterTrouble trouble = new ClusterTrouble(ClusterFault.NODE_LOST, 0, new SimulatedWorkload());
        assertThat(trouble.current("ip-10-0-1-10.eu-west-1.compute.internal", Instant.EPOCH))
                .contains("ip-10-0-1-10.eu-west-1.compute.internal");
    }
}
