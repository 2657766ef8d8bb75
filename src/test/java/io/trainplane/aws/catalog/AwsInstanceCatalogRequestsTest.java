package io.trainplane.aws.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.Prerequisite;
import io.trainplane.aws.SignedHttp;
import io.trainplane.core.Json;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The requests moto_server does not answer (the Price List's GetProducts, EC2's
 * DescribeCapacityBlockOfferings) judged by botocore's own serializers from AWS's service models:
 * for the same parameters, the body this client sends is the body boto3 sends. The answers are
 * written with the output shapes' wire names from the same models.
 */
class AwsInstanceCatalogRequestsTest {
    @TempDir
    Path dir;

    /** A fake HTTP client that answers {@code answer} and keeps the requests' bodies. */
    static final class Recording implements SdkHttpClient {
        final List<String> bodies = new ArrayList<>();
        final List<Map<String, List<String>>> headers = new ArrayList<>();
        final String answer;

        Recording(String answer) {
            this.answer = answer;
        }

        @Override
        public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
            return new ExecutableHttpRequest() {
                @Override
                public HttpExecuteResponse call() throws IOException {
                    try (var in = request.contentStreamProvider().orElseThrow().newStream()) {
                        bodies.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    }
                    headers.add(request.httpRequest().headers());
                    return HttpExecuteResponse.builder()
                            .response(SdkHttpResponse.builder().statusCode(200).build())
                            .responseBody(AbortableInputStream.create(
                                    new java.io.ByteArrayInputStream(answer.getBytes(StandardCharsets.UTF_8))))
                            .build();
                }

                @Override
                public void abort() {}
            };
        }

        @Override
        public void close() {}
    }

    static AwsInstanceCatalog catalog(SdkHttpClient http) {
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));
        URI endpoint = URI.create("https://example.invalid/");
        return new AwsInstanceCatalog(
                new SignedHttp(http, credentials, "ec2", "us-east-1", endpoint),
                new SignedHttp(http, credentials, "pricing", "us-east-1", endpoint));
    }

    /** botocore's serialized body of {@code operation} of {@code service} with {@code params}. */
    String botocore(String service, String operation, String params) throws Exception {
        Path script = dir.resolve("serialize.py");
        Files.writeString(
                script,
                """
                import json, sys
                import botocore.session, botocore.serialize
                service, operation, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
                model = botocore.session.get_session().get_service_model(service)
                op = model.operation_model(operation)
                body = botocore.serialize.create_serializer(model.metadata['protocol']).serialize_to_request(params, op)['body']
                sys.stdout.write(body.decode() if isinstance(body, bytes) else body if isinstance(body, str) else json.dumps(body))
                """);
        Process p;
        try {
            p = new ProcessBuilder("python3", script.toString(), service, operation, params).start();
        } catch (IOException e) {
            throw Prerequisite.missing("python3 with boto3 is not on the PATH: " + e.getMessage());
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        if (p.exitValue() != 0 && err.contains("No module named 'botocore'")) {
            throw Prerequisite.missing("python3 has no botocore (pip install boto3)");
        }
        assertThat(p.exitValue()).as(err).isZero();
        return out;
    }

    /** A form body as botocore keeps an EC2 request's parameters: names to values, numbers as numbers. */
    static JsonNode form(String body) {
        var params = Json.object();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            String value = java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8);
            String name = java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8);
            if (value.matches("\\d+")) {
                params.put(name, Integer.parseInt(value));
            } else {
                params.put(name, value);
            }
        }
        return params;
    }

    @Test
    void getProductsIsTheBodyBoto3SendsAndItsPriceIsRead() throws Exception {
        String product = Json.write(
                Json.read(
                        """
                {"product": {"attributes": {"instanceType": "g6.xlarge"}},
                 "terms": {"OnDemand": {"X.JRTCKXETXF": {"priceDimensions": {
                    "X.JRTCKXETXF.6YS6EN2CT7": {"unit": "Hrs", "pricePerUnit": {"USD": "0.8048000000"}}}}}}}
                """));
        var answer = Json.object().put("FormatVersion", "aws_v1");
        answer.putArray("PriceList").add(product);
        Recording http = new Recording(Json.write(answer));

        Map<String, Double> prices = catalog(http).onDemandPerHour("eu-west-1", List.of("g6.xlarge"));

        assertThat(prices).containsExactly(Map.entry("g6.xlarge", 0.8048));
        String expected = botocore(
                "pricing",
                "GetProducts",
                """
                {"ServiceCode": "AmazonEC2", "FormatVersion": "aws_v1", "Filters": [
                  {"Type": "TERM_MATCH", "Field": "regionCode", "Value": "eu-west-1"},
                  {"Type": "TERM_MATCH", "Field": "instanceType", "Value": "g6.xlarge"},
                  {"Type": "TERM_MATCH", "Field": "operatingSystem", "Value": "Linux"},
                  {"Type": "TERM_MATCH", "Field": "tenancy", "Value": "Shared"},
                  {"Type": "TERM_MATCH", "Field": "preInstalledSw", "Value": "NA"},
                  {"Type": "TERM_MATCH", "Field": "capacitystatus", "Value": "Used"}]}
                """);
        assertThat(Json.read(http.bodies.getFirst())).isEqualTo(Json.read(expected));
        assertThat(http.headers.getFirst().get("X-Amz-Target")).containsExactly(AwsInstanceCatalog.PRICE_LIST_TARGET);
    }

    @Test
    void capacityBlockOfferingsAreTheFormBoto3SendsAndTheCheapestIsTaken() throws Exception {
        String answer =
                """
                <DescribeCapacityBlockOfferingsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
                  <requestId>r-1</requestId>
                  <capacityBlockOfferingSet>
                    <item><capacityBlockOfferingId>cbr-1</capacityBlockOfferingId><instanceType>p5.48xlarge</instanceType>
                      <availabilityZone>us-east-1a</availabilityZone><instanceCount>2</instanceCount>
                      <capacityBlockDurationHours>48</capacityBlockDurationHours><upfrontFee>3500.00</upfrontFee>
                      <currencyCode>USD</currencyCode><tenancy>default</tenancy></item>
                    <item><capacityBlockOfferingId>cbr-2</capacityBlockOfferingId><instanceType>p5.48xlarge</instanceType>
                      <availabilityZone>us-east-1b</availabilityZone><instanceCount>2</instanceCount>
                      <capacityBlockDurationHours>48</capacityBlockDurationHours><upfrontFee>3072.00</upfrontFee>
                      <currencyCode>USD</currencyCode><tenancy>default</tenancy></item>
                  </capacityBlockOfferingSet>
                </DescribeCapacityBlockOfferingsResponse>
                """;
        Recording http = new Recording(answer);

        Optional<InstanceCatalog.CapacityBlockOffering> offering =
                catalog(http).capacityBlockOffering("p5.48xlarge", 2, 48);

        assertThat(offering).contains(new InstanceCatalog.CapacityBlockOffering("p5.48xlarge", 2, 48, 3072.0));
        assertThat(offering.orElseThrow().perInstanceHour()).isEqualTo(32.0);
        assertThat(form(http.bodies.getFirst()))
                .isEqualTo(Json.read(botocore(
                        "ec2",
                        "DescribeCapacityBlockOfferings",
                        "{\"InstanceType\": \"p5.48xlarge\", \"InstanceCount\": 2, \"CapacityDurationHours\": 48}")));
    }

    @Test
    void spotPriceHistoryAndInstanceTypesAreTheFormsBoto3Sends() throws Exception {
        Recording http = new Recording(
                "<DescribeSpotPriceHistoryResponse><spotPriceHistorySet/></DescribeSpotPriceHistoryResponse>");
        catalog(http).spotPerHour(List.of("g5.xlarge", "g6.xlarge"), Instant.parse("2026-11-27T00:00:00Z"));
        assertThat(form(http.bodies.getFirst()))
                .isEqualTo(Json.read(botocore(
                        "ec2",
                        "DescribeSpotPriceHistory",
                        "{\"InstanceTypes\": [\"g5.xlarge\", \"g6.xlarge\"], \"ProductDescriptions\": [\"Linux/UNIX\"],"
                                + " \"StartTime\": \"2026-11-27T00:00:00Z\"}")));

        Recording types =
                new Recording("<DescribeInstanceTypesResponse><instanceTypeSet/></DescribeInstanceTypesResponse>");
        assertThat(catalog(types).describeInstanceTypes(List.of("g5.xlarge"))).isEmpty();
        assertThat(form(types.bodies.getFirst()))
                .isEqualTo(Json.read(botocore("ec2", "DescribeInstanceTypes", "{\"InstanceTypes\": [\"g5.xlarge\"]}")));
    }

    @Test
    void theMedianOfTheZonesLatestPricesIsTheSpotPrice() {
        assertThat(AwsInstanceCatalog.median(List.of(0.5, 0.3, 0.4))).isEqualTo(0.4);
        assertThat(AwsInstanceCatalog.median(List.of(0.5, 0.3))).isEqualTo(0.4);
        JsonNode none = Json.read("{\"PriceList\": []}");
        assertThat(AwsInstanceCatalog.onDemand(none)).isEmpty();
    }
}
