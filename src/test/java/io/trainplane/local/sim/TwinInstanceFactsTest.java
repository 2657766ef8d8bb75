package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The twin's EC2 answers and its EKS AMI kubelet are its own, and agree with their peers: the copy
 * of EC2's answers with the product's copy of the same answers (Ec2CatalogMotoTest checks both
 * against moto_server itself), the network figures with the EKS AMI's own instance-info.jsonl, and
 * the formulas with the kubelet configuration nodeadm's end-to-end tests expect.
 */
class TwinInstanceFactsTest {
    private static JsonNode resource(String name) throws IOException {
        try (InputStream in = TwinInstanceFactsTest.class.getResourceAsStream(name)) {
            return Json.read(in);
        }
    }

    @Test
    void theTwinsCopyOfEc2sAnswersHoldsTheSameAnswersAsTheCatalogTakenFromThem() throws IOException {
        JsonNode twin = resource(Ec2InstanceFacts.RESOURCE);
        JsonNode answers = resource("/ec2/instance-types.json");
        assertThat(twin.path("instanceTypes")).isEqualTo(answers.path("instanceTypes"));
        assertThat(twin.path("regions")).isEqualTo(answers.path("regions"));
        assertThat(twin.path("date")).isEqualTo(answers.path("date"));
        assertThat(Ec2InstanceFacts.all()).hasSize(twin.path("instanceTypes").size());
    }

    @Test
    void ec2sNetworkFiguresAgreeWithTheEksAmisOwnForEveryType() {
        for (Ec2InstanceFacts.Fact f : Ec2InstanceFacts.all()) {
            EksAmiKubelet.InstanceInfo info = EksAmiKubelet.instanceInfo(f.name());
            assertThat(info).as("%s in eks-ami-instance-info.jsonl", f.name()).isNotNull();
            assertThat(info.defaultMaxEnis()).as(f.name()).isEqualTo(f.interfacesOnDefaultCard());
            assertThat(info.ipv4AddressesPerInterface()).as(f.name()).isEqualTo(f.ipv4PerInterface());
        }
    }

    @Test
    void maxPodsIsTheEnisOfTheDefaultCardTimesTheirAddressesLessOnePlusTwo() {
        // c5.2xlarge: 4 ENIs of 15 addresses; p5.48xlarge: 2 ENIs of 50 on its default card (of 32).
        assertThat(EksAmiKubelet.maxPods("c5.2xlarge")).isEqualTo(58);
        assertThat(EksAmiKubelet.maxPods("p5.48xlarge")).isEqualTo(100);
        assertThat(EksAmiKubelet.maxPods("x9z.unknown")).isEqualTo(110);
        assertThat(InstanceTypes.require("p5.48xlarge").gpus()).isEqualTo(8);
        assertThat(InstanceTypes.require("p5.48xlarge").efaInterfaces()).isEqualTo(32);
    }

    @Test
    void kubeReservedIsWhatNodeadmWritesIntoTheKubeletConfig() {
        // nodeadm/test/e2e/cases/kubelet-config-set-empty/expected-kubelet-config.json: an m4.xlarge
        // (4 ENIs of 15 addresses) on the mock's two CPUs: maxPods 58, cpu 70m, memory 893Mi.
        assertThat(EksAmiKubelet.reservedMillicores(2)).isEqualTo(70);
        assertThat(EksAmiKubelet.reservedMemoryMiB(58)).isEqualTo(893);
        // Each range rounds down on its own: 5 cores are 60 + 10 + 5 + 5 + 2 (2.5 rounded down).
        assertThat(EksAmiKubelet.reservedMillicores(1)).isEqualTo(60);
        assertThat(EksAmiKubelet.reservedMillicores(4)).isEqualTo(80);
        assertThat(EksAmiKubelet.reservedMillicores(5)).isEqualTo(82);
        assertThat(EksAmiKubelet.reservedMillicores(8)).isEqualTo(90);
        assertThat(EksAmiKubelet.reservedMillicores(96)).isEqualTo(310);
    }

    @Test
    void aC52xlargeLeavesPodsItsCapacityLessKubeReservedAndTheEvictionThreshold() {
        // 8 vCPUs, 16 GiB: 8000m - 90m; 16384Mi - (11 × 58 + 255)Mi - 100Mi.
        assertThat(EksAmiKubelet.allocatable("c5.2xlarge", 8, 16384))
                .isEqualTo(new EksAmiKubelet.Allocatable(7910, 15391, 58));
    }
}
