package io.trainplane.local.sim;

import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Caller;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.iam.Role;
import io.trainplane.local.iam.StackTemplate;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a node may pull an image from a private ECR registry: "the Amazon EKS worker node IAM
 * role ... must contain the following IAM policy permissions for Amazon ECR": ecr:BatchGetImage,
 * ecr:GetDownloadUrlForLayer and ecr:GetAuthorizationToken
 * (https://docs.aws.amazon.com/AmazonECR/latest/userguide/ECR_on_EKS.html; template.yaml's
 * EksNodeRole has them through AmazonEC2ContainerRegistryReadOnly). The kubelet's ECR credential
 * provider asks for the token as the node's instance role; the registry then checks BatchGetImage
 * (the manifest) and GetDownloadUrlForLayer (the layers) for the repository
 * (https://docs.aws.amazon.com/AmazonECR/latest/userguide/image-pull.html). Each request is judged
 * by the account's IAM (and so recorded in the audit log) as a session of the node role; a node
 * role the stack does not create (a pre-existing cluster's) cannot be judged and pulls.
 */
public final class EcrPulls implements ImagePulls.Registries {
    /**
     * A private registry's image: {@code <account>.dkr.ecr.<region>.amazonaws.com/<repository>[:tag|@digest]}
     * (https://docs.aws.amazon.com/AmazonECR/latest/userguide/Registries.html); public.ecr.aws is
     * ECR Public, pulled without credentials.
     */
    static final Pattern PRIVATE_IMAGE = Pattern.compile(
            "(?<account>\\d{12})\\.dkr\\.ecr(-fips)?\\.(?<region>[a-z0-9-]+)\\.amazonaws\\.com(\\.cn)?/"
                    + "(?<repository>[a-z0-9][a-z0-9._/-]*?)(?::(?<tag>[\\w][\\w.-]{0,127})|@(?<digest>sha256:[0-9a-f]{64}))?");

    private final StackTemplate stack;
    private final Authorizer iam;

    public EcrPulls(StackTemplate stack, Authorizer iam) {
        this.stack = stack;
        this.iam = iam;
    }

    @Override
    public Optional<String> refusal(String nodeRoleArn, String node, String image) {
        Matcher m = PRIVATE_IMAGE.matcher(image);
        if (nodeRoleArn == null || !m.matches()) {
            return Optional.empty();
        }
        Optional<Role> role = stack.roles().values().stream()
                .filter(r -> r.arn().equals(nodeRoleArn))
                .findFirst();
        if (role.isEmpty()) {
            return Optional.empty();
        }
        String host = image.substring(0, image.indexOf('/'));
        String repository = m.group("repository");
        String reference =
                m.group("digest") != null ? m.group("digest") : m.group("tag") != null ? m.group("tag") : "latest";
        String repositoryArn =
                "arn:aws:ecr:" + m.group("region") + ":" + m.group("account") + ":repository/" + repository;
        // The node's instance profile session, as CloudTrail names it: the role, then the instance.
        Caller kubelet = new Caller(
                "kubelet on " + node,
                role.get().logicalId(),
                "arn:aws:sts::" + stack.account().accountId() + ":assumed-role/"
                        + role.get().name() + "/" + node);
        String unpack = "rpc error: code = Unknown desc = failed to pull and unpack image \"" + image + "\": ";
        if (!allowed(kubelet, IamRequest.of("ecr:GetAuthorizationToken", "*"))) {
            // No token: the credential provider gives the kubelet none and the registry turns the
            // anonymous request away.
            return Optional.of(unpack + "failed to resolve reference \"" + image + "\": pulling from host " + host
                    + " failed with status code [manifests " + reference + "]: 401 Unauthorized");
        }
        if (!allowed(kubelet, IamRequest.of("ecr:BatchGetImage", repositoryArn))) {
            return Optional.of(unpack + "failed to resolve reference \"" + image + "\": pulling from host " + host
                    + " failed with status code [manifests " + reference + "]: 403 Forbidden");
        }
        if (!allowed(kubelet, IamRequest.of("ecr:GetDownloadUrlForLayer", repositoryArn))) {
            return Optional.of(unpack + "failed to copy: httpReadSeeker: failed open: unexpected status code https://"
                    + host + "/v2/" + repository + "/blobs/" + layer(image) + ": 403 Forbidden");
        }
        return Optional.empty();
    }

    private boolean allowed(Caller caller, IamRequest request) {
        AuditEntry entry = iam.authorize(caller, request);
        return entry.decision().allowed();
    }

    /** A stand-in for the image's first layer digest (the twin has no manifest): stable for the image. */
    private static String layer(String image) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256")
                                    .digest(("layer 0 of " + image).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The actions a node role needs to pull from a private ECR registry, for messages. */
    public static final List<String> ACTIONS =
            List.of("ecr:GetAuthorizationToken", "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer");
}
