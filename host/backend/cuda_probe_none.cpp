// Builds without the CUDA backend never have a usable device.
namespace ls {

bool cuda_available() {
  return false;
}

}  // namespace ls
