#include "report/tenet_report.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "io_test_util.hpp"
#include "tenet/mapping/systolic.hpp"

using namespace tenet;
using io_test::error_of;

namespace {

analysis::TensorMetrics tensor(const char* name, workload::AccessKind kind,
                               workload::OperandRole role, long total, long unique) {
  analysis::TensorMetrics t;
  t.name = name;
  t.kind = kind;
  t.role = role;
  t.bits = 8;
  t.total_volume = total;
  t.space_time_volume = total;
  t.unique_volume = unique;
  t.temporal_reuse_volume = total - unique;
  t.spatial_reuse_volume = 3;
  t.reuse_factor =
      unique ? double(total) / double(unique) : std::numeric_limits<double>::infinity();
  t.temporal_reuse = 0.5;
  t.spatial_reuse = 0.25;
  return t;
}

// A hand-made report: the formatter is tested on its own, independent of the analysis.
analysis::Report sample_report() {
  using workload::AccessKind;
  using workload::OperandRole;
  analysis::Report r;
  r.macs = poly::Integer("1180591620717411303424");       // 2^70: beyond uint64
  r.time_stamps = poly::Integer("18446744073709551615");  // 2^64 - 1: uint64 only
  r.active_pes = 256;
  r.avg_active_pes = 241.5;
  r.delay.compute = 10;
  r.delay.ingress = 20;
  r.delay.egress = 5;
  r.delay.total = 20;
  r.energy = 1234.5;
  r.multiplicity.instances = 64;
  r.multiplicity.space_time_points = 32;
  r.multiplicity.injective = false;
  r.multiplicity.average = 2;
  r.tensors = {tensor("A", AccessKind::kRead, OperandRole::kActivation, 64, 16),
               tensor("C", AccessKind::kRead, OperandRole::kOutput, 64, 0),
               tensor("C", AccessKind::kWrite, OperandRole::kOutput, 64, 8)};
  return r;
}

}  // namespace

TEST_CASE("exact counts become JSON integers, or strings beyond 64 bits", "[io][report]") {
  CHECK(report::count_to_json(poly::Integer(42)).is_number_integer());
  CHECK(report::count_to_json(poly::Integer("-5")).get<long long>() == -5);
  auto u = report::count_to_json(poly::Integer("18446744073709551615"));
  CHECK(u.is_number_unsigned());
  CHECK(u.get<unsigned long long>() == 18446744073709551615ULL);
  CHECK(u.dump() == "18446744073709551615");
  auto big = report::count_to_json(poly::Integer("1180591620717411303424"));
  CHECK(big.is_string());
  CHECK(big.get<std::string>() == "1180591620717411303424");
}

TEST_CASE("a tensor read and written is keyed NAME and NAME.write", "[io][report]") {
  CHECK(report::tensor_keys(sample_report()) == std::vector<std::string>{"A", "C", "C.write"});
}

TEST_CASE("JSON report has the contract keys", "[io][report]") {
  auto j = report::report_to_json(sample_report());
  for (const char* key :
       {"macs", "time_stamps", "active_pes", "avg_active_pes", "delay", "energy", "tensors"})
    CHECK(j.contains(key));
  CHECK(j["macs"] == "1180591620717411303424");
  CHECK(j["time_stamps"].get<unsigned long long>() == 18446744073709551615ULL);
  CHECK(j["active_pes"] == 256);
  CHECK(j["avg_active_pes"] == 241.5);
  CHECK(j["delay"]["compute"] == 10);
  CHECK(j["delay"]["ingress"] == 20);
  CHECK(j["delay"]["egress"] == 5);
  CHECK(j["delay"]["total"] == 20);
  CHECK(j["energy"] == 1234.5);
  CHECK(j["multiplicity"]["injective"] == false);
  const auto& a = j["tensors"]["A"];
  for (const char* key :
       {"role", "total_volume", "unique_volume", "reuse_factor", "temporal_reuse", "spatial_reuse"})
    CHECK(a.contains(key));
  CHECK(a["role"] == "activation");
  CHECK(a["kind"] == "read");
  CHECK(a["bits"] == 8);
  CHECK(a["total_volume"] == 64);
  CHECK(a["unique_volume"] == 16);
  CHECK(a["reuse_factor"] == 4.0);
  CHECK(a["temporal_reuse"] == 0.5);
  CHECK(a["spatial_reuse"] == 0.25);
  CHECK(j["tensors"]["C"]["kind"] == "read");
  CHECK(j["tensors"]["C"]["reuse_factor"].is_null());  // unique = 0: infinite
  CHECK(j["tensors"]["C.write"]["kind"] == "write");
  CHECK(j["tensors"]["C.write"]["tensor"] == "C");
  CHECK_FALSE(j.contains("workload"));
}

TEST_CASE("JSON report echoes the problem and options when given", "[io][report]") {
  input::Problem p{mapping::make_gemm_workload({4, 4, 4}), mapping::make_systolic_array(2, 2),
                   mapping::make_systolic_mapping(mapping::Dataflow::kWeightStationary, 2, 2),
                   std::nullopt, std::nullopt};
  analysis::Options options;
  options.neighbourhood.hops = 2;
  auto j = report::report_to_json(sample_report(), {&p, &options});
  CHECK(j["workload"]["name"] == "gemm 4x4x4");
  CHECK(j["workload"]["accesses"].size() == 3);
  CHECK(j["architecture"]["bandwidth_bits_per_cycle"] == 64);
  CHECK(j["mapping"]["name"] == "ws");
  CHECK(j["options"]["neighbourhood"]["hops"] == 2);
  CHECK(j["options"]["compute_delay"] == "active");
}

TEST_CASE("CSV report: one metric per row with its unit", "[io][report]") {
  const std::string csv = report::report_to_csv(sample_report());
  CHECK(csv.rfind("section,name,metric,value,unit\n", 0) == 0);
  CHECK(csv.find("overall,,macs,1180591620717411303424,MACs\n") != std::string::npos);
  CHECK(csv.find("delay,,total,20,cycles\n") != std::string::npos);
  CHECK(csv.find("tensor,C.write,unique_volume,8,elements\n") != std::string::npos);
  CHECK(csv.find("tensor,C,reuse_factor,inf,ratio\n") != std::string::npos);
  CHECK(csv.find("tensor,A,role,activation,\n") != std::string::npos);
}

TEST_CASE("table report is readable and carries units", "[io][report]") {
  const std::string table = report::report_to_table(sample_report());
  CHECK(table.find("1,180,591,620,717,411,303,424") != std::string::npos);
  CHECK(table.find("cycles") != std::string::npos);
  CHECK(table.find("MAC-energy units") != std::string::npos);
  CHECK(table.find("C.write") != std::string::npos);
  CHECK(table.find("several share a point") != std::string::npos);
}

TEST_CASE("report format names", "[io][report]") {
  CHECK(report::parse_report_format("json") == report::ReportFormat::kJson);
  CHECK(report::parse_report_format("csv") == report::ReportFormat::kCsv);
  CHECK(report::parse_report_format("table") == report::ReportFormat::kTable);
  CHECK(error_of([] { report::parse_report_format("yaml"); }).code() == error_code::kUnknownName);
  CHECK(report::format_report(sample_report(), report::ReportFormat::kJson).back() == '\n');
}
