// lamina-model-bench: presentation evaluation speed (`ModelBench` in the Benchmarks target).
import Benchmarks

ModelBench.run(Array(CommandLine.arguments.dropFirst()))
