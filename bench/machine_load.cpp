#include "bench/machine_load.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "bench/timer.h"

namespace kvz {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<double> cpu_mhz(const std::string& sys, int cpus) {
  std::vector<double> out;
  for (int i = 0; i < cpus; ++i) {
    const std::string khz =
        read_text(sys + "/devices/system/cpu/cpu" + std::to_string(i) + "/cpufreq/scaling_cur_freq");
    char* end = nullptr;
    const double v = std::strtod(khz.c_str(), &end);
    if (end != khz.c_str() && v > 0) out.push_back(v / 1000.0);
  }
  return out;
}

}  // namespace

bool parse_proc_stat_cpu(const std::string& text, double& busy, double& total, double& steal) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu ", 0) != 0) continue;
    std::istringstream fields(line.substr(4));
    double f[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // user nice system idle iowait irq softirq steal
    int n = 0;
    while (n < 8 && fields >> f[n]) ++n;
    if (n < 4) return false;
    busy = f[0] + f[1] + f[2] + f[5] + f[6];
    total = busy + f[3] + f[4] + f[7];
    steal = f[7];
    return true;
  }
  return false;
}

bool parse_loadavg(const std::string& text, double (&avg)[3]) {
  std::istringstream in(text);
  double a[3];
  if (!(in >> a[0] >> a[1] >> a[2])) return false;
  for (int i = 0; i < 3; ++i) {
    if (!(a[i] >= 0)) return false;
    avg[i] = a[i];
  }
  return true;
}

LoadSample sample_machine_load(const std::string& proc, const std::string& sys) {
  LoadSample s;
  s.wall = wall_seconds();
  s.process_cpu = process_cpu_seconds();
  parse_loadavg(read_text(proc + "/loadavg"), s.load_avg);
  s.stat_read = parse_proc_stat_cpu(read_text(proc + "/stat"), s.busy_ticks, s.total_ticks, s.steal_ticks);
  s.mhz = cpu_mhz(sys, static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN))));
  return s;
}

MachineLoad machine_load_between(const LoadSample& start, const LoadSample& end, int threads, double ticks_per_second) {
  MachineLoad l;
  l.recorded = true;
  std::copy(std::begin(start.load_avg), std::end(start.load_avg), std::begin(l.load_avg_start));
  std::copy(std::begin(end.load_avg), std::end(end.load_avg), std::begin(l.load_avg_end));
  l.wall_seconds = std::max(0.0, end.wall - start.wall);
  l.process_cpu_seconds = std::max(0.0, end.process_cpu - start.process_cpu);
  l.threads = std::max(1, threads);
  const double total = end.total_ticks - start.total_ticks;
  if (start.stat_read && end.stat_read && total > 0 && ticks_per_second > 0 && l.wall_seconds > 0) {
    const double busy = (end.busy_ticks - start.busy_ticks) / ticks_per_second;
    l.others_cores = std::max(0.0, busy - l.process_cpu_seconds) / l.wall_seconds;
    l.steal_share = std::clamp((end.steal_ticks - start.steal_ticks) / total, 0.0, 1.0);
  }
  std::vector<double> mhz = start.mhz;
  mhz.insert(mhz.end(), end.mhz.begin(), end.mhz.end());
  if (!mhz.empty()) {
    l.cpu_mhz_min = *std::min_element(mhz.begin(), mhz.end());
    l.cpu_mhz_max = *std::max_element(mhz.begin(), mhz.end());
  }
  return l;
}

}  // namespace kvz

namespace kvz {

MachineLoad machine_load_between(const LoadSample& start, const LoadSample& end, int threads) {
  return machine_load_between(start, end, threads, static_cast<double>(sysconf(_SC_CLK_TCK)));
}

}  // namespace kvz
