import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The Lambda runtime's part in one cold start, for ./bench/run coldstart (io.trainplane.bench.ColdStart):
 * {@code java -cp <function jar>:<this compiled> ColdStartHarness <handler class | baseline> <input file> <launch epoch ms> [primed]}
 * builds the handler with its no-argument constructor, as Lambda does, serves one invocation and exits.
 * With {@code primed}, the handler's SnapStart hook {@code beforeCheckpoint} runs between the two, as
 * before a snapshot: the invocation after it stands for the first one after a SnapStart restore.
 *
 * <p>Not part of any jar: ColdStart compiles this file against the function's artifact at benchmark
 * time, so the Lambda jars never carry it. It prints {@code result ok|error <class> <message>},
 * {@code output <json>}, {@code timing <ms to handler built> <ms to invocation done> <ms to invocation start>} (from the launch)
 * and {@code vmhwm <kB>}: the peak RSS from /proc/self/status, read last.
 */
public final class ColdStartHarness {
    public static void main(String[] args) throws Exception {
        // The launcher's clock just before it started this process (the argument after the input file).
        long jvmStart = Long.parseLong(args[2]);
        byte[] input = Files.readAllBytes(Path.of(args[1]));
        RequestStreamHandler handler;
        try {
            // A function's handler class, or a reference: "baseline", or ColdStartKubernetesFloor.
            handler = args[0].equals("baseline")
                    ? new Baseline()
                    : (RequestStreamHandler)
                            Class.forName(args[0]).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            report("error " + cause.getClass().getName() + " " + oneLine(cause.getMessage()));
            cause.printStackTrace();
            System.exit(cause instanceof Error ? 4 : 3);
            return;
        }
        long built = System.currentTimeMillis();
        if (args.length > 3 && args[3].equals("primed")) {
            ((io.trainplane.workflow.StepHandler) handler).snapStart().beforeCheckpoint(null);
        }
        long invoked = System.currentTimeMillis();
        // Its loading marks where the invocation starts in a -Xlog:class+load log.
        InvocationStarts.mark();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = 0;
        try {
            handler.handleRequest(new java.io.ByteArrayInputStream(input), out, null);
            report("ok");
        } catch (RuntimeException e) {
            // What Lambda reports as the function error: a classified failure is still a served invocation.
            report("error " + e.getClass().getName() + " " + oneLine(e.getMessage()));
            exit = 3;
        } catch (Error e) {
            // NoClassDefFoundError and the like: the artifact is broken.
            report("error " + e.getClass().getName() + " " + oneLine(e.getMessage()));
            e.printStackTrace();
            exit = 4;
        }
        long done = System.currentTimeMillis();
        System.out.println("output " + oneLine(out.toString(StandardCharsets.UTF_8)));
        System.out.println("timing " + (built - jvmStart) + " " + (done - jvmStart) + " " + (invoked - jvmStart));
        System.out.println("vmhwm " + vmHwm());
        System.out.flush();
        // Lambda freezes the container after the response; nothing waits for non-daemon threads.
        Runtime.getRuntime().halt(exit);
    }

    private static final class InvocationStarts {
        static void mark() {}
    }

    private static void report(String result) {
        System.out.println("result " + result);
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\n', ' ').replace('\r', ' ');
    }

    private static long vmHwm() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** The reference: one DynamoDB PutItem, with the SDK set up as io.trainplane.aws.AwsClients sets it up. */
    public static final class Baseline implements RequestStreamHandler {
        private final DynamoDbClient dynamoDb;
        private final String table = System.getenv("RUNS_TABLE");

        public Baseline() {
            AwsCredentialsProvider credentials = System.getenv("AWS_LAMBDA_FUNCTION_NAME") != null
                    ? EnvironmentVariableCredentialsProvider.create()
                    : DefaultCredentialsProvider.builder().build();
            dynamoDb = DynamoDbClient.builder()
                    .httpClient(UrlConnectionHttpClient.create())
                    .region(Region.of(System.getenv().getOrDefault("AWS_REGION", "us-east-1")))
                    .credentialsProvider(credentials)
                    .build();
        }

        @Override
        public void handleRequest(InputStream in, OutputStream out, Context context) throws java.io.IOException {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            dynamoDb.putItem(r -> r.tableName(table)
                    .item(Map.of(
                            "pk", AttributeValue.fromS("BASELINE#" + System.nanoTime()),
                            "sk", AttributeValue.fromS("BASELINE"),
                            "input", AttributeValue.fromS(body))));
            out.write("{\"ok\":true}".getBytes(StandardCharsets.UTF_8));
        }
    }
}
