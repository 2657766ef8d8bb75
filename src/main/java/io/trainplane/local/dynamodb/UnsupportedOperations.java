package io.trainplane.local.dynamodb;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CreateBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateBackupResponse;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateGlobalTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteBackupResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteResourcePolicyRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteResourcePolicyResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeBackupResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeContinuousBackupsRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeContinuousBackupsResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeContributorInsightsRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeEndpointsRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeEndpointsResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeExportRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeExportResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeGlobalTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeGlobalTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeGlobalTableSettingsRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeGlobalTableSettingsResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeImportRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeImportResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeKinesisStreamingDestinationRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeLimitsRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeLimitsResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableReplicaAutoScalingRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableReplicaAutoScalingResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveResponse;
import software.amazon.awssdk.services.dynamodb.model.DisableKinesisStreamingDestinationRequest;
import software.amazon.awssdk.services.dynamodb.model.DisableKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.EnableKinesisStreamingDestinationRequest;
import software.amazon.awssdk.services.dynamodb.model.EnableKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionResponse;
import software.amazon.awssdk.services.dynamodb.model.ExportTableToPointInTimeRequest;
import software.amazon.awssdk.services.dynamodb.model.ExportTableToPointInTimeResponse;
import software.amazon.awssdk.services.dynamodb.model.GetResourcePolicyRequest;
import software.amazon.awssdk.services.dynamodb.model.GetResourcePolicyResponse;
import software.amazon.awssdk.services.dynamodb.model.ImportTableRequest;
import software.amazon.awssdk.services.dynamodb.model.ImportTableResponse;
import software.amazon.awssdk.services.dynamodb.model.ListBackupsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListBackupsResponse;
import software.amazon.awssdk.services.dynamodb.model.ListContributorInsightsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.ListExportsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListExportsResponse;
import software.amazon.awssdk.services.dynamodb.model.ListGlobalTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListGlobalTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ListImportsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListImportsResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.PutResourcePolicyRequest;
import software.amazon.awssdk.services.dynamodb.model.PutResourcePolicyResponse;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableFromBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableFromBackupResponse;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableToPointInTimeRequest;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableToPointInTimeResponse;
import software.amazon.awssdk.services.dynamodb.model.TagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.TagResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateContinuousBackupsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateContinuousBackupsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateContributorInsightsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateGlobalTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateGlobalTableResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateGlobalTableSettingsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateGlobalTableSettingsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateKinesisStreamingDestinationRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableReplicaAutoScalingRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableReplicaAutoScalingResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;

/**
 * Every DynamoDB operation the twin's DynamoDB does not implement, refused by name (the SDK's
 * defaults throw an {@link UnsupportedOperationException} without one). Generated from the
 * request methods of the SDK 2.31.78 interface; {@link SqliteDynamoDb} overrides the ones it serves.
 */
abstract class UnsupportedOperations implements DynamoDbClient {
    static UnsupportedOperationException unsupported(String operation) {
        return new UnsupportedOperationException(
                "DynamoDB " + operation + " is not supported by the twin's DynamoDB (io.trainplane.local.dynamodb)");
    }

    @Override
    public BatchExecuteStatementResponse batchExecuteStatement(BatchExecuteStatementRequest request) {
        throw unsupported("BatchExecuteStatement");
    }

    @Override
    public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
        throw unsupported("BatchGetItem");
    }

    @Override
    public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
        throw unsupported("BatchWriteItem");
    }

    @Override
    public CreateBackupResponse createBackup(CreateBackupRequest request) {
        throw unsupported("CreateBackup");
    }

    @Override
    public CreateGlobalTableResponse createGlobalTable(CreateGlobalTableRequest request) {
        throw unsupported("CreateGlobalTable");
    }

    @Override
    public DeleteBackupResponse deleteBackup(DeleteBackupRequest request) {
        throw unsupported("DeleteBackup");
    }

    @Override
    public DeleteResourcePolicyResponse deleteResourcePolicy(DeleteResourcePolicyRequest request) {
        throw unsupported("DeleteResourcePolicy");
    }

    @Override
    public DescribeBackupResponse describeBackup(DescribeBackupRequest request) {
        throw unsupported("DescribeBackup");
    }

    @Override
    public DescribeContinuousBackupsResponse describeContinuousBackups(DescribeContinuousBackupsRequest request) {
        throw unsupported("DescribeContinuousBackups");
    }

    @Override
    public DescribeContributorInsightsResponse describeContributorInsights(DescribeContributorInsightsRequest request) {
        throw unsupported("DescribeContributorInsights");
    }

    @Override
    public DescribeEndpointsResponse describeEndpoints(DescribeEndpointsRequest request) {
        throw unsupported("DescribeEndpoints");
    }

    @Override
    public DescribeExportResponse describeExport(DescribeExportRequest request) {
        throw unsupported("DescribeExport");
    }

    @Override
    public DescribeGlobalTableResponse describeGlobalTable(DescribeGlobalTableRequest request) {
        throw unsupported("DescribeGlobalTable");
    }

    @Override
    public DescribeGlobalTableSettingsResponse describeGlobalTableSettings(DescribeGlobalTableSettingsRequest request) {
        throw unsupported("DescribeGlobalTableSettings");
    }

    @Override
    public DescribeImportResponse describeImport(DescribeImportRequest request) {
        throw unsupported("DescribeImport");
    }

    @Override
    public DescribeKinesisStreamingDestinationResponse describeKinesisStreamingDestination(
            DescribeKinesisStreamingDestinationRequest request) {
        throw unsupported("DescribeKinesisStreamingDestination");
    }

    @Override
    public DescribeLimitsResponse describeLimits(DescribeLimitsRequest request) {
        throw unsupported("DescribeLimits");
    }

    @Override
    public DescribeTableReplicaAutoScalingResponse describeTableReplicaAutoScaling(
            DescribeTableReplicaAutoScalingRequest request) {
        throw unsupported("DescribeTableReplicaAutoScaling");
    }

    @Override
    public DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest request) {
        throw unsupported("DescribeTimeToLive");
    }

    @Override
    public DisableKinesisStreamingDestinationResponse disableKinesisStreamingDestination(
            DisableKinesisStreamingDestinationRequest request) {
        throw unsupported("DisableKinesisStreamingDestination");
    }

    @Override
    public EnableKinesisStreamingDestinationResponse enableKinesisStreamingDestination(
            EnableKinesisStreamingDestinationRequest request) {
        throw unsupported("EnableKinesisStreamingDestination");
    }

    @Override
    public ExecuteStatementResponse executeStatement(ExecuteStatementRequest request) {
        throw unsupported("ExecuteStatement");
    }

    @Override
    public ExecuteTransactionResponse executeTransaction(ExecuteTransactionRequest request) {
        throw unsupported("ExecuteTransaction");
    }

    @Override
    public ExportTableToPointInTimeResponse exportTableToPointInTime(ExportTableToPointInTimeRequest request) {
        throw unsupported("ExportTableToPointInTime");
    }

    @Override
    public GetResourcePolicyResponse getResourcePolicy(GetResourcePolicyRequest request) {
        throw unsupported("GetResourcePolicy");
    }

    @Override
    public ImportTableResponse importTable(ImportTableRequest request) {
        throw unsupported("ImportTable");
    }

    @Override
    public ListBackupsResponse listBackups(ListBackupsRequest request) {
        throw unsupported("ListBackups");
    }

    @Override
    public ListContributorInsightsResponse listContributorInsights(ListContributorInsightsRequest request) {
        throw unsupported("ListContributorInsights");
    }

    @Override
    public ListExportsResponse listExports(ListExportsRequest request) {
        throw unsupported("ListExports");
    }

    @Override
    public ListGlobalTablesResponse listGlobalTables(ListGlobalTablesRequest request) {
        throw unsupported("ListGlobalTables");
    }

    @Override
    public ListImportsResponse listImports(ListImportsRequest request) {
        throw unsupported("ListImports");
    }

    @Override
    public ListTagsOfResourceResponse listTagsOfResource(ListTagsOfResourceRequest request) {
        throw unsupported("ListTagsOfResource");
    }

    @Override
    public PutResourcePolicyResponse putResourcePolicy(PutResourcePolicyRequest request) {
        throw unsupported("PutResourcePolicy");
    }

    @Override
    public RestoreTableFromBackupResponse restoreTableFromBackup(RestoreTableFromBackupRequest request) {
        throw unsupported("RestoreTableFromBackup");
    }

    @Override
    public RestoreTableToPointInTimeResponse restoreTableToPointInTime(RestoreTableToPointInTimeRequest request) {
        throw unsupported("RestoreTableToPointInTime");
    }

    @Override
    public TagResourceResponse tagResource(TagResourceRequest request) {
        throw unsupported("TagResource");
    }

    @Override
    public TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request) {
        throw unsupported("TransactGetItems");
    }

    @Override
    public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
        throw unsupported("TransactWriteItems");
    }

    @Override
    public UntagResourceResponse untagResource(UntagResourceRequest request) {
        throw unsupported("UntagResource");
    }

    @Override
    public UpdateContinuousBackupsResponse updateContinuousBackups(UpdateContinuousBackupsRequest request) {
        throw unsupported("UpdateContinuousBackups");
    }

    @Override
    public UpdateContributorInsightsResponse updateContributorInsights(UpdateContributorInsightsRequest request) {
        throw unsupported("UpdateContributorInsights");
    }

    @Override
    public UpdateGlobalTableResponse updateGlobalTable(UpdateGlobalTableRequest request) {
        throw unsupported("UpdateGlobalTable");
    }

    @Override
    public UpdateGlobalTableSettingsResponse updateGlobalTableSettings(UpdateGlobalTableSettingsRequest request) {
        throw unsupported("UpdateGlobalTableSettings");
    }

    @Override
    public UpdateKinesisStreamingDestinationResponse updateKinesisStreamingDestination(
            UpdateKinesisStreamingDestinationRequest request) {
        throw unsupported("UpdateKinesisStreamingDestination");
    }

    @Override
    public UpdateTableResponse updateTable(UpdateTableRequest request) {
        throw unsupported("UpdateTable");
    }

    @Override
    public UpdateTableReplicaAutoScalingResponse updateTableReplicaAutoScaling(
            UpdateTableReplicaAutoScalingRequest request) {
        throw unsupported("UpdateTableReplicaAutoScaling");
    }

    @Override
    public UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest request) {
        throw unsupported("UpdateTimeToLive");
    }
}
