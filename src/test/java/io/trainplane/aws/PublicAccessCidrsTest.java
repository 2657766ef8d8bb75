package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What EKS takes in publicAccessCidrs (see {@link PublicAccessCidrs} for the pages). */
class PublicAccessCidrsTest {
    @ParameterizedTest
    @ValueSource(
            strings = {"0.0.0.0/0", "203.0.113.0/24", "198.51.100.7/32", "52.94.0.0/16", "8.0.0.0/5", "100.63.0.0/16"})
    void publicBlocksAreAccepted(String cidr) {
        assertThat(PublicAccessCidrs.problems(List.of(cidr))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "10.1.0.0/16",
                "172.16.5.0/24",
                "192.168.0.0/16",
                "127.0.0.1/32",
                "169.254.169.254/32",
                "100.64.0.0/10",
                "224.0.0.0/8",
                "0.0.0.0/8"
            })
    void reservedRangesAreRefused(String cidr) {
        assertThat(PublicAccessCidrs.problems(List.of(cidr)))
                .singleElement()
                .asString()
                .contains("reserved range");
    }

    @ParameterizedTest
    @ValueSource(strings = {"203.0.113.7/24", "1.2.3.4/0"})
    void hostBitsAreRefusedWithTheNetworkToWrite(String cidr) {
        assertThat(PublicAccessCidrs.problems(List.of(cidr)))
                .singleElement()
                .asString()
                .contains("write its network");
    }

    @ParameterizedTest
    @ValueSource(strings = {"203.0.113.0", "256.1.1.0/24", "203.0.113.0/33", "2001:db8::/32", "", "any"})
    void whatIsNoIpv4BlockIsRefused(String cidr) {
        assertThat(PublicAccessCidrs.problems(List.of(cidr)))
                .singleElement()
                .asString()
                .contains("not an IPv4 CIDR block");
    }

    @Test
    void atMostFortyBlocks() {
        List<String> forty =
                IntStream.range(0, 40).mapToObj(i -> "52.94." + i + ".0/24").toList();
        List<String> fortyOne =
                IntStream.range(0, 41).mapToObj(i -> "52.94." + i + ".0/24").toList();

        assertThat(PublicAccessCidrs.problems(forty)).isEmpty();
        assertThat(PublicAccessCidrs.problems(fortyOne))
                .singleElement()
                .asString()
                .contains("more than EKS's 40");
        assertThat(PublicAccessCidrs.invalid(List.of("52.94.0.0/16", "10.0.0.0/8", "x")))
                .containsExactly("10.0.0.0/8", "x");
    }
}
