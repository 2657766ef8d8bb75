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

    @Test
    void buildsASampleWithOneElementInEachListAndMapSoTheirCopiersRun() {
        var sample = (DescribeClusterResponse) ModelWarmup.sample(DescribeClusterResponse.builder());

        assertThat(sample.cluster().tags()).containsEntry("priming", "priming");
        assertThat(sample.cluster().health().issues()).hasSize(1);
        assertThat(sample.cluster().logging().clusterLogging().get(0).typesAsStrings())
                .containsExactly("priming");
        assertThat(sample.cluster().name()).isEqualTo("priming");
        var items = ((QueryResponse) ModelWarmup.sample(QueryResponse.builder())).items();
        assertThat(items).as("a list of maps of a recursive type").hasSize(1);
        assertThat(items.get(0).get("priming").s()).isEqualTo("priming");
    }
}
