package io.trainplane.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = "Write a starter spec (trainplane.json) and starter training code (train.py, prepare.py) that"
                + " keep the workload contract into DIR, ready for `trainplane run DIR/trainplane.json --runtime"
                + " process`. Writes over nothing unless --force.")
final class InitCommand implements Callable<Integer> {
    /** The starter's files, from the jar's starter/ resources. */
    static final List<String> FILES = List.of("trainplane.json", "train.py", "prepare.py");

    @Spec
    CommandSpec command;

    @Parameters(
            index = "0",
            arity = "0..1",
            defaultValue = ".",
            paramLabel = "DIR",
            description = "the directory to write into, made when missing (default: the current directory)")
    Path dir;

    @Option(names = "--force", description = "replace the starter's files where DIR already has them")
    boolean force;

    @Override
    public Integer call() {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UserInputException(dir + " is a file: init writes a directory of files; name a directory");
        }
        List<String> existing =
                FILES.stream().filter(f -> Files.exists(dir.resolve(f))).toList();
        if (!existing.isEmpty() && !force) {
            throw new UserInputException(dir + " already has " + String.join(", ", existing)
                    + ": init replaces nothing of yours. Choose another directory, or pass --force to replace them");
        }
        try {
            Files.createDirectories(dir);
            for (String file : FILES) {
                try (InputStream in = InitCommand.class.getResourceAsStream("/starter/" + file)) {
                    if (in == null) {
                        throw new IllegalStateException("starter file missing from the jar: " + file);
                    }
                    Files.write(dir.resolve(file), in.readAllBytes());
                }
            }
        } catch (IOException e) {
            // /proc/x, a read-only mount, a directory of someone else's: the user's to choose another.
            String why = e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                    ? fs.getReason()
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getMessage();
            throw new UserInputException("cannot write the starter into " + dir + (why == null ? "" : " (" + why + ")")
                    + ": name a directory you can write, e.g. trainplane init my-run");
        }
        var out = command.commandLine().getOut();
        String spec = dir.resolve("trainplane.json").toString();
        out.println("wrote "
                + String.join(
                        ", ", FILES.stream().map(f -> dir.resolve(f).toString()).toList()));
        out.println("rehearse it here (needs a python with torch): trainplane run " + spec + " --runtime process");
        out.println("see what a run on EKS would create and cost:   trainplane plan " + spec);
        out.flush();
        return Main.SUCCEEDED;
    }
}
