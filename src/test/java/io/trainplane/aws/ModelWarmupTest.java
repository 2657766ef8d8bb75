package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterIssue;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.VpcConfigResponse;

class ModelWarmupTest {
    @Test
    void reachesTheNestedTypesOfAnAnswerThroughMembersListsAndMaps() {
        var warmed = ModelWarmup.warm(DescribeClusterResponse.builder());

        assertThat(warmed)
                .as("the Cluster, a member's member, and the ClusterIssue inside ClusterHealth's list")
                .contains(
                        Cluster.builder().getClass(),
                        VpcConfigResponse.builder().getClass(),
                        ClusterIssue.builder().getClass());
        assertThat(ModelWarmup.warm(QueryResponse.builder()))
                .as("AttributeValue, the value type of the items' maps")
                .contains(software.amazon.awssdk.services.dynamodb.model.AttributeValue.builder()
                        .getClass());
    }
}
