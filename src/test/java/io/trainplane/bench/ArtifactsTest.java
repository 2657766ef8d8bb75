package io.trainplane.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ArtifactsTest {
    @Test
    void theBudgetIs25MiBAndTheHeadroomTargetStrictlyUnder85PerCentOfIt() {
        assertThat(Artifacts.BUDGET).isEqualTo(26_214_400L);
        assertThat(Artifacts.HEADROOM_LIMIT).isEqualTo(22_282_240L);
        assertThat(Artifacts.verdict(26_214_400L)).isEqualTo("PASS");
        assertThat(Artifacts.verdict(26_214_401L)).isEqualTo("FAIL");
        assertThat(Artifacts.headroomVerdict(22_282_239L)).isEqualTo("PASS");
        assertThat(Artifacts.headroomVerdict(22_282_240L)).isEqualTo("FAIL");
        assertThat(Artifacts.headroomVerdict(25_709_895L)).isEqualTo("FAIL");
    }
}
