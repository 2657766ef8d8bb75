package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The twin's own copy of AWS's prices holds the same prices as the tables taken from the same
 * source (a change to either is checked against the source, not copied across), and answers as
 * the Price List would.
 */
class PriceListAnswersTest {
    static final List<String> REGIONS = List.of(
            "ap-northeast-1",
            "ap-south-1",
            "ap-southeast-2",
            "eu-central-1",
            "eu-west-1",
            "us-east-1",
            "us-east-2",
            "us-west-2");

    private static JsonNode read(String resource) throws IOException {
        try (InputStream in = PriceListAnswersTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return Json.read(in);
        }
    }

    @Test
    void theTwinsPricesAreTheSourcesPricesInEveryRegion() throws IOException {
        for (String region : REGIONS) {
            JsonNode twin = read(PriceListAnswers.FOLDER + region + ".json");
            JsonNode table = read("/prices/" + region + ".json");
            assertThat(twin.path("instances")).as(region).isEqualTo(table.path("instances"));
            assertThat(twin.path("spotInstances")).as(region).isEqualTo(table.path("spotInstances"));
            assertThat(twin.path("source")).as(region).isEqualTo(table.path("source"));
        }
    }

    @Test
    void aRegionsOnDemandPriceIsItsListedOneAndAnUnpricedRegionHasNone() {
        assertThat(PriceListAnswers.of("us-east-1").orElseThrow().onDemand()).containsEntry("c5.2xlarge", 0.34);
        assertThat(PriceListAnswers.of("xx-nowhere-1")).isEmpty();
    }
}
