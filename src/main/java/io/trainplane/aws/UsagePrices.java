package io.trainplane.aws;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The prices of what a run uses besides its nodes, control plane, volume and workflow: each from
 * the price table's top-level key of the same name, whose {@code ...Source} key beside it cites
 * the AWS pricing page. A price the table does not have is null, and the line it prices is left
 * out of the totals (the plan then says its total is incomplete).
 *
 * <ul>
 *   <li>{@code ebsGp3PerGbMonth}: the nodes' root volumes (gp3), https://aws.amazon.com/ebs/pricing/
 *   <li>{@code logsIngestionPerGb}: CloudWatch Logs ingestion (Standard), the cluster's control-plane
 *       logs, https://aws.amazon.com/cloudwatch/pricing/
 *   <li>{@code natGatewayPerHour}, {@code natGatewayPerGb}: a NAT gateway's hour and data processed,
 *       https://aws.amazon.com/vpc/pricing/
 *   <li>{@code dataTransferInPerGb}: data transferred in from the internet,
 *       https://aws.amazon.com/ec2/pricing/on-demand/#Data_Transfer
 *   <li>{@code s3StandardPerGbMonth}, {@code s3PutPer1000}, {@code s3GetPer1000}: S3 Standard
 *       storage, PUT/COPY/POST/LIST and GET requests, https://aws.amazon.com/s3/pricing/
 * </ul>
 */
public record UsagePrices(
        Double ebsGp3PerGbMonth,
        Double logsIngestionPerGb,
        Double natGatewayPerHour,
        Double natGatewayPerGb,
        Double dataTransferInPerGb,
        S3 s3) {

    /** S3 Standard: storage per GB-month, PUT/COPY/POST/LIST and GET requests per 1,000. */
    public record S3(Double standardPerGbMonth, Double putPer1000, Double getPer1000) {}

    /** No prices at all: every line they price is unpriced. */
    public static final UsagePrices NONE = new UsagePrices(null, null, null, null, null, new S3(null, null, null));

    /** The prices of a table's top-level keys. */
    public static UsagePrices parse(JsonNode table) {
        return new UsagePrices(
                price(table, "ebsGp3PerGbMonth"),
                price(table, "logsIngestionPerGb"),
                price(table, "natGatewayPerHour"),
                price(table, "natGatewayPerGb"),
                price(table, "dataTransferInPerGb"),
                new S3(
                        price(table, "s3StandardPerGbMonth"),
                        price(table, "s3PutPer1000"),
                        price(table, "s3GetPer1000")));
    }

    private static Double price(JsonNode table, String key) {
        JsonNode value = table.path(key);
        return value.isNumber() ? value.asDouble() : null;
    }
}
