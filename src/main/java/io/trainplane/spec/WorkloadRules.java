package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules of the {@code workload} section that its schema cannot say: which fields go with
 * which code route, argument lists that are shell lines in disguise, and names that must be
 * environment variable names (POSIX: letters, digits and '_', not starting with a digit,
 * https://pubs.opengroup.org/onlinepubs/9799919799/basedefs/V1_chap08.html).
 */
final class WorkloadRules {
    static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** What only a shell makes sense of: a command substitution or a list of commands. */
    private static final Pattern SUBSTITUTION = Pattern.compile("`|\\$\\(|&&|\\|\\|");

    /** A separator or a pipe in an element that also has spaces: a whole command line. */
    private static final Pattern LINE_OPERATOR = Pattern.compile("[;|]");

    /** s3://, a bucket name (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html), a key prefix. */
    private static final Pattern S3_PREFIX = Pattern.compile("s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/[^\\s]*)?");

    private static final List<String> BUILTIN_ARGUMENTS = List.of("epochs", "batchSize", "learningRate");

    private WorkloadRules() {}

    static void check(RunSpec spec, JsonNode given, List<SpecProblem> problems) {
        WorkloadSpec workload = spec.workload();
        JsonNode trainingImage = given.at("/training/image");
        if (workload.image() != null
                && trainingImage.isTextual()
                && !trainingImage.asText().equals(workload.image())) {
            problems.add(new SpecProblem(
                    "/workload/image",
                    "is \"" + workload.image() + "\", but training.image is \"" + trainingImage.asText()
                            + "\": both name the image the workload runs in",
                    "keep workload.image and remove training.image (its older spelling)"));
        }
        if (workload.code() == WorkloadCode.BUILTIN) {
            checkBuiltin(workload, given, problems);
        } else {
            checkImage(workload, given, problems);
        }
        checkRoute(workload, problems);
        checkCommand("prepare", workload.prepare(), problems);
        checkCommand("train", workload.train(), problems);
        checkCommand("evaluate", workload.evaluate(), problems);
        checkHyperparameters(workload, problems);
        checkMpiSecrets(spec, problems);
    }

    /**
     * An MPIJob's processes are started by mpirun over ssh from the launcher pod, in worker pods
     * whose command is sshd: a secret read in a pod would have to travel from there to every
     * process, which this version does not do.
     */
    private static void checkMpiSecrets(RunSpec spec, List<SpecProblem> problems) {
        WorkloadCommand train = spec.workload().train();
        if (train == null || train.secrets().isEmpty() || spec.training().launcher() != Launcher.MPIJOB) {
            return;
        }
        String name = train.secrets().keySet().iterator().next();
        problems.add(
                new SpecProblem(
                        SchemaProblems.child("/workload/commands/train/env", name),
                        "is a secret by reference, but training.launcher is \"mpijob\": mpirun starts the processes over ssh"
                                + " in worker pods that run only sshd, and a secret the pods read would not reach them",
                        "use training.launcher \"indexed-job\" or \"pytorchjob\" for a training that needs secrets, or let"
                                + " your code read the secret itself (the run's pods may read secrets under RunSecretsPrefix)"));
    }

    private static void checkBuiltin(WorkloadSpec workload, JsonNode given, List<SpecProblem> problems) {
        boolean defaulted = given.at("/workload/code").isMissingNode();
        String code = "workload.code is \"builtin\"" + (defaulted ? " (the default)" : "");
        if (given.at("/workload/commands").isObject()) {
            problems.add(new SpecProblem(
                    "/workload/commands",
                    "gives commands, but " + code + ": the built-in CIFAR-10 scripts run with their own commands",
                    "set workload.code to \"image\" to run your own commands from your image, or remove"
                            + " workload.commands"));
        }
        if (!workload.hyperparameters().isEmpty()) {
            problems.add(new SpecProblem(
                    "/workload/hyperparameters",
                    "gives hyperparameters, but " + code + ": the built-in scripts take only their own arguments",
                    "set training.epochs, training.batchSize and training.learningRate for the built-in scripts,"
                            + " or set workload.code to \"image\" and commands.train to run your code"));
        }
        if (workload.launcher() == TrainLauncher.NONE) {
            problems.add(new SpecProblem(
                    "/workload/launcher",
                    "is \"none\", but " + code + ": the built-in train.py runs under torchrun",
                    "remove workload.launcher, or set workload.code to \"image\" with your own commands.train"));
        }
    }

    /** An s3:// prefix names a bucket; the CLI's package goes only with a directory. */
    private static void checkRoute(WorkloadSpec workload, List<SpecProblem> problems) {
        if (workload.code() instanceof WorkloadCode.S3Prefix prefix
                && !S3_PREFIX.matcher(prefix.uri()).matches()) {
            problems.add(new SpecProblem(
                    "/workload/code",
                    "\"" + prefix.uri()
                            + "\" is not an S3 prefix: s3://, a bucket name (3-63 lowercase letters, digits,"
                            + " '.' and '-'), then '/' and the prefix",
                    "give it as s3://my-bucket/code/trainer/"));
        }
        if (workload.codePackage() != null && !(workload.code() instanceof WorkloadCode.Directory)) {
            problems.add(new SpecProblem(
                    "/workload/package",
                    "is the CLI's record of a packed local directory, but workload.code is \"" + workload.code() + "\"",
                    "remove workload.package: the trainplane CLI writes it when workload.code is a directory"));
        }
    }

    private static void checkImage(WorkloadSpec workload, JsonNode given, List<SpecProblem> problems) {
        String code = "workload.code \"" + workload.code() + "\"";
        if (workload.train() == null) {
            problems.add(new SpecProblem(
                    "/workload/commands/train",
                    "is required with " + code + ": Trainplane cannot guess how your code trains",
                    workload.code() == WorkloadCode.IMAGE
                            ? "give the training's command as a list, for example \"commands\": {\"train\": {\"args\":"
                                    + " [\"python\", \"/app/train.py\"]}}"
                            : "give the training's command as a list; it runs in /workload, where your code is: for"
                                    + " example \"commands\": {\"train\": {\"args\": [\"python\", \"train.py\"]}}"));
        }
        // Only a value other than the default: the normalized spec, read again, has the defaults.
        for (String field : BUILTIN_ARGUMENTS) {
            JsonNode value = given.at("/training/" + field);
            JsonNode fallback = SpecSchema.get().at("/properties/training/properties/" + field + "/default");
            if (value.isNumber() && value.decimalValue().compareTo(fallback.decimalValue()) != 0) {
                problems.add(new SpecProblem(
                        "/training/" + field,
                        "is an argument of the built-in scripts, which " + code + " does not run",
                        "give it to your code as a hyperparameter: \"workload\": {\"hyperparameters\": {\"" + field
                                + "\": " + value + "}}"));
            }
        }
    }

    private static void checkCommand(String role, WorkloadCommand command, List<SpecProblem> problems) {
        if (command == null) {
            return;
        }
        String pointer = "/workload/commands/" + role;
        List<String> args = command.args();
        String program = args.getFirst();
        if (program.isBlank() || program.chars().anyMatch(Character::isWhitespace)) {
            problems.add(new SpecProblem(
                    pointer + "/args/0",
                    "\"" + program + "\" is not a program name: the first element is the program alone, run"
                            + " without a shell",
                    "split it into list elements, one word each: " + asList(program)));
        }
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            // What follows a -c is code for the program before it (sh -c, bash -c, python -c).
            boolean code = i > 0 && args.get(i - 1).equals("-c");
            if (i == 0 || code) {
                continue;
            }
            boolean shellLine = SUBSTITUTION.matcher(arg).find()
                    || (LINE_OPERATOR.matcher(arg).find() && arg.chars().anyMatch(Character::isWhitespace));
            if (shellLine) {
                problems.add(new SpecProblem(
                        pointer + "/args/" + i,
                        "\"" + arg + "\" looks like a shell command line, but args run without a shell: the"
                                + " program would get it as one argument, operators and all",
                        "split it into list elements, one argument each, or ask for a shell explicitly:"
                                + " [\"sh\", \"-c\", \"" + arg.replace("\"", "\\\"") + "\"]"));
            }
        }
        List<String> names = new java.util.ArrayList<>(command.env().keySet());
        names.addAll(command.secrets().keySet());
        for (String name : names) {
            String at = SchemaProblems.child(pointer + "/env", name);
            if (!ENV_NAME.matcher(name).matches()) {
                problems.add(new SpecProblem(
                        at,
                        "\"" + name + "\" is not an environment variable name: letters, digits and '_', not"
                                + " starting with a digit",
                        "rename it, for example \"" + suggestedName(name) + "\""));
            } else if (name.startsWith("TRAINPLANE_")) {
                problems.add(new SpecProblem(
                        at,
                        "\"" + name + "\" is one of Trainplane's own variables (TRAINPLANE_*), which it sets itself",
                        "choose another name; hyperparameters go in workload.hyperparameters, which sets"
                                + " TRAINPLANE_HP_<NAME>"));
            }
        }
    }

    private static void checkHyperparameters(WorkloadSpec workload, List<SpecProblem> problems) {
        Map<String, String> byEnvName = new HashMap<>();
        for (String key : workload.hyperparameters().keySet()) {
            String at = SchemaProblems.child("/workload/hyperparameters", key);
            if (!ENV_NAME.matcher(key).matches()) {
                problems.add(new SpecProblem(
                        at,
                        "\"" + key + "\" cannot be a hyperparameter name: it is passed as the environment variable "
                                + WorkloadSpec.HYPERPARAMETER_ENV_PREFIX + key.toUpperCase(Locale.ROOT)
                                + ", and a name has only letters, digits and '_', not starting with a digit",
                        "rename it, for example \"" + suggestedName(key) + "\" (your code then reads --"
                                + suggestedName(key) + ")"));
                continue;
            }
            String envName = WorkloadSpec.hyperparameterEnvName(key);
            String other = byEnvName.putIfAbsent(envName, key);
            if (other != null) {
                problems.add(new SpecProblem(
                        at,
                        "\"" + key + "\" and \"" + other + "\" are the same variable " + envName + " once upper-cased",
                        "keep one of them"));
            }
        }
    }

    /** {@code name} with what an environment variable name cannot hold turned into '_'. */
    private static String suggestedName(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9_]", "_");
        return cleaned.isEmpty() || Character.isDigit(cleaned.charAt(0)) ? "_" + cleaned : cleaned;
    }

    private static String asList(String line) {
        StringBuilder list = new StringBuilder("[");
        for (String word : line.trim().split("\\s+")) {
            list.append(list.length() > 1 ? ", " : "")
                    .append('"')
                    .append(word.replace("\"", "\\\""))
                    .append('"');
        }
        return list.append(']').toString();
    }
}
