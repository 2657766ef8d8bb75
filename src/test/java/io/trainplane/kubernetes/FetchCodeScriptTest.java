package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.spec.CodeDirectory;
import io.trainplane.spec.CodePackage;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fetch-code's script, run for real by /bin/sh (the AWS CLI replaced by a command that copies a
 * directory standing for the bucket's prefix): the copy is digested as the CLI digested the
 * package, so the package itself passes, and a file added or changed in the bucket after the
 * upload stops the pod before any of the run's code starts.
 */
class FetchCodeScriptTest {
    @TempDir
    Path work;

    record Fetched(int exit, String termination, String output) {}

    Fetched fetch(SortedMap<String, byte[]> packed, SortedMap<String, byte[]> inBucket) throws Exception {
        Path bucket = Files.createDirectories(work.resolve("bucket"));
        for (var file : inBucket.entrySet()) {
            Path at = bucket.resolve(file.getKey());
            Files.createDirectories(at.getParent());
            Files.write(at, file.getValue());
        }
        Path workload = Files.createDirectories(work.resolve("workload"));
        Path bin = Files.createDirectories(work.resolve("bin"));
        // aws s3 cp URI DIR --recursive ...: $4 is the directory.
        Files.writeString(bin.resolve("aws"), "#!/bin/sh\ncp -R '" + bucket + "'/. \"$4\"\n");
        bin.resolve("aws").toFile().setExecutable(true);
        Path termination = work.resolve("termination-log");

        RunSpec spec = RunSpecs.fromNormalized(
                RunSpecs.normalize("{\"runId\": \"r1\", \"cluster\": {\"mode\": \"existing\", \"name\": \"c\"},"
                        + " \"workload\": {\"code\": \"./src\", \"package\": {\"route\": \"bucket\", \"bytes\": 1,"
                        + " \"sha256\": \"" + CodeDirectory.digest(packed) + "\","
                        + " \"s3Uri\": \"s3://bucket/runs/tp-r1/code/\"},"
                        + " \"commands\": {\"train\": {\"args\": [\"python\", \"train.py\"]}}}}"));
        assertThat(spec.workload().codePackage().route()).isEqualTo(CodePackage.Route.BUCKET);
        var container = new WorkloadManifests(spec).fetchCode();
        String script = container
                .getCommand()
                .get(2)
                .replace(WorkloadManifests.WORKLOAD_DIR, workload.toString())
                .replace("/dev/termination-log", termination.toString());
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        container.getEnv().forEach(e -> builder.environment().put(e.getName(), e.getValue()));
        Process sh = builder.start();
        String output = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Fetched(sh.exitValue(), Files.exists(termination) ? Files.readString(termination) : "", output);
    }

    static SortedMap<String, byte[]> files(String... pathsAndContents) {
        SortedMap<String, byte[]> files = new TreeMap<>();
        for (int i = 0; i < pathsAndContents.length; i += 2) {
            files.put(pathsAndContents[i], pathsAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return files;
    }

    static final SortedMap<String, byte[]> PACKAGE = files(
            "train.py", "print('train')\n",
            "lib/model.py", "X = 1\n",
            "lib/a b.txt", "",
            "README-é.md", "naïve\n",
            "Zeta.py", "# upper case sorts first\n");

    @Test
    void theUploadedPackageMatchesItsDigest() throws Exception {
        Fetched fetched = fetch(PACKAGE, PACKAGE);
        assertThat(fetched.exit()).as(fetched.output()).isZero();
        assertThat(fetched.termination()).isEmpty();
    }

    @Test
    void aFileAddedAfterTheUploadStopsThePod() throws Exception {
        SortedMap<String, byte[]> planted = new TreeMap<>(PACKAGE);
        planted.put("sitecustomize.py", "import os\n".getBytes(StandardCharsets.UTF_8));
        Fetched fetched = fetch(PACKAGE, planted);
        assertThat(fetched.exit()).as(fetched.output()).isEqualTo(WorkloadManifests.CODE_MISMATCH);
        assertThat(fetched.termination())
                .contains("CODE DIGEST MISMATCH", CodeDirectory.digest(planted), CodeDirectory.digest(PACKAGE));
    }

    @Test
    void aFileChangedAfterTheUploadStopsThePod() throws Exception {
        SortedMap<String, byte[]> changed = new TreeMap<>(PACKAGE);
        changed.put("train.py", "print('TRAIN')\n".getBytes(StandardCharsets.UTF_8));
        Fetched fetched = fetch(PACKAGE, changed);
        assertThat(fetched.exit()).as(fetched.output()).isEqualTo(WorkloadManifests.CODE_MISMATCH);
    }
}
