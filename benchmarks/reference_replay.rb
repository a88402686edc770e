# frozen_string_literal: true

# Times the 18xx.games reference engine loading recorded games, for benchmarks/replay.py --reference.
# Prints one line per file: "NAME CPU_SECONDS" (best of RUNS). Needs ruby and the oracle's set-up
# (../shared/oracle/setup.sh); it loads the engine through the oracle's toby_boot.rb.
#
#   ruby benchmarks/reference_replay.rb RUNS FILE.json...

require 'json'
require_relative '../../shared/oracle/toby_boot'

runs = Integer(ARGV.shift)
ARGV.each do |file|
  data = JSON.parse(File.read(file))
  best = Float::INFINITY
  runs.times do
    t0 = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    game = Engine::Game.load(data, strict: false)
    raise "#{file}: #{game.exception.message}" if game.exception

    best = [best, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - t0].min
  end
  puts "#{File.basename(file)} #{best}"
end
