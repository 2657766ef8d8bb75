package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated EKS's own reading of which public access CIDR blocks EKS takes. */
class EksPublicAccessCidrsTest {
    @Test
    void publicIpv4NetworksAndEksDefaultAreAccepted() {
        assertThat(EksPublicAccessCidrs.refused(
                        List.of("0.0.0.0/0", "203.0.113.5/32", "198.51.100.0/24", "52.94.0.0/16", "64.0.0.0/2")))
                .isEmpty();
    }

    @Test
    void reservedRangesHostBitsAndAnythingButIpv4AreRefused() {
        List<String> refused = List.of(
                "10.0.0.0/8",
                "10.1.0.0/16",
                "172.16.5.0/24",
                "192.168.1.1/32",
                "100.64.0.0/10",
                "127.0.0.1/32",
                "169.254.169.254/32",
                "224.0.0.0/4",
                "255.255.255.255/32",
                "0.0.0.0/8",
                "203.0.113.7/24",
                "2001:db8::/32",
                "256.1.1.0/24",
                "1.2.3.0/33",
                "1.2.3/24",
                "example");
        assertThat(EksPublicAccessCidrs.refused(refused)).isEqualTo(refused);
        assertThat(EksPublicAccessCidrs.QUOTA).isEqualTo(40);
    }
}
