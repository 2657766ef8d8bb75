package io.trainplane.aws.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.aws.MotoServer;
import io.trainplane.aws.SignedHttp;
import io.trainplane.spec.InstanceShapes;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The hand-written EC2 Query client against moto_server, which answers DescribeInstanceTypes and
 * DescribeSpotPriceHistory from AWS's own records: the shapes it reads are the offline catalog's
 * (which the refresh script took from the same answers through boto3), a type EC2 does not know is
 * left out, and Spot prices come back for the types asked.
 */
class AwsInstanceCatalogMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    AwsInstanceCatalog catalog() {
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));
        var http = UrlConnectionHttpClient.create();
        return new AwsInstanceCatalog(
                new SignedHttp(
                        http,
                        credentials,
                        "ec2",
                        MotoServer.REGION.id(),
                        MOTO.endpoint().resolve("/")),
                new SignedHttp(
                        http,
                        credentials,
                        "pricing",
                        "us-east-1",
                        MOTO.endpoint().resolve("/")));
    }

    @Test
    void describedShapesAreTheCatalogsAndAnUnknownTypeIsLeftOut() {
        List<String> asked = List.of("g5.12xlarge", "p5.48xlarge", "trn1.32xlarge", "m5.large", "x9.nonexistent");
        var shapes = catalog().describeInstanceTypes(asked);

        assertThat(shapes).containsOnlyKeys("g5.12xlarge", "p5.48xlarge", "trn1.32xlarge", "m5.large");
        shapes.forEach((name, shape) ->
                assertThat(shape).as(name).isEqualTo(InstanceShapes.of(name).orElseThrow()));
        assertThat(shapes.get("p5.48xlarge").gpus()).isEqualTo(8);
        assertThat(shapes.get("p5.48xlarge").efaInterfaces()).isEqualTo(32);
    }

    @Test
    void spotPricesComeBackForTheTypesAsked() {
        var prices = catalog().spotPerHour(List.of("g5.xlarge", "m5.large"), Instant.parse("2020-01-01T00:00:00Z"));

        assertThat(prices).isNotEmpty();
        assertThat(prices.keySet()).isSubsetOf("g5.xlarge", "m5.large");
        assertThat(prices.values()).allSatisfy(p -> assertThat(p).isPositive());
    }
}
