package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every image a run puts on a cluster is pinned: a release tag or a digest, never a moving tag
 * (latest, master, main) or none at all, so a run next year pulls what it pulls today. Read from
 * the sources themselves: the install manifests shipped in the jar, the image constants of the
 * code that builds manifests, and the spec's default training image.
 */
class PinnedImagesTest {
    static final Set<String> MOVING = Set.of("latest", "master", "main", "nightly", "edge", "dev", "stable");
    static final Pattern YAML_IMAGE =
            Pattern.compile("^[ \\t-]*image:[ \\t]*\"?([^\\s\"]+)\"?[ \\t]*$", Pattern.MULTILINE);
    static final Pattern JAVA_IMAGE = Pattern.compile(
            "\"((?:[a-z0-9.-]+\\.[a-z]+/)?[a-z0-9._-]+(?:/[a-z0-9._-]+)+(?::[A-Za-z0-9._-]+)?(?:@sha256:[0-9a-f]{64})?)\"");

    static boolean pinned(String image) {
        if (image.matches(".+@sha256:[0-9a-f]{64}")) {
            return true;
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        return colon > slash && !MOVING.contains(image.substring(colon + 1));
    }

    static List<String> images() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> manifests = Files.walk(Path.of("src/main/resources"))) {
            for (Path file :
                    manifests.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                Matcher m = YAML_IMAGE.matcher(Files.readString(file));
                while (m.find()) {
                    found.add(file.getFileName() + ": " + m.group(1));
                }
            }
        }
        try (Stream<Path> sources = Files.list(Path.of("src/main/java/io/trainplane/kubernetes"))) {
            for (Path file : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    if (!line.contains("IMAGE")) {
                        continue; // the image constants, named *_IMAGE or IMAGE
                    }
                    Matcher m = JAVA_IMAGE.matcher(line);
                    while (m.find()) {
                        found.add(file.getFileName() + ": " + m.group(1));
                    }
                }
            }
        }
        String defaultImage = io.trainplane.spec.RunSpecs.schema()
                .at("/properties/training/properties/image/default")
                .asText();
        found.add("run-spec.schema.json: " + defaultImage);
        return found;
    }

    @Test
    void everyImageARunInstallsIsATagOrADigestThatDoesNotMove() throws IOException {
        List<String> images = images();

        assertThat(images)
                .as("the operators' Deployments, the device plugins, the AWS CLI and pause images, the default")
                .hasSizeGreaterThanOrEqualTo(6);
        assertThat(images)
                .filteredOn(i -> !pinned(i.substring(i.indexOf(": ") + 2)))
                .as("images without a release tag or digest")
                .isEmpty();
    }

    /**
     * The default training image is declared once, in the run spec's schema; the documents and
     * examples that name it, and the table of published image sizes, are held to it here.
     */
    @Test
    void theDocsAndTheSizeTableNameTheSchemasDefaultTrainingImage() throws IOException {
        String defaultImage = io.trainplane.spec.RunSpecs.schema()
                .at("/properties/training/properties/image/default")
                .asText();
        for (String doc : List.of("docs/workload-contract.md", "docs/spec-reference.md", "events/run-started.json")) {
            assertThat(Files.readString(Path.of(doc)))
                    .as("%s names the default training image", doc)
                    .contains(defaultImage);
        }
        assertThat(io.trainplane.spec.NodeDisk.KNOWN_COMPRESSED_GB)
                .as("the default image's published size")
                .containsKey(defaultImage);
    }

    @Test
    void theCheckTellsAMovingTagFromAPinnedOne() {
        assertThat(pinned("mpioperator/mpi-operator:master")).isFalse();
        assertThat(pinned("busybox")).isFalse();
        assertThat(pinned("localhost:5000/x")).isFalse();
        assertThat(pinned("nvcr.io/nvidia/k8s-device-plugin:latest")).isFalse();
        assertThat(pinned("mpioperator/mpi-operator:0.8")).isTrue();
        assertThat(pinned("localhost:5000/x:1.2")).isTrue();
        assertThat(pinned("x@sha256:" + "a".repeat(64))).isTrue();
    }
}
